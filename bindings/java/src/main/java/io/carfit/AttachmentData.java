package io.carfit;

/**
 * What visits.attachment_data gives: its answer (id, bytes, contentType) and the attachment's
 * original bytes, whatever the encryption.
 *
 * @param response the answer document
 * @param bytes the attachment, as many bytes as {@code response.bytes()}
 */
public record AttachmentData(VisitsAttachmentDataResponse response, byte[] bytes) {
}
