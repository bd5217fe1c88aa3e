package io.carfit;

/**
 * What images.data gives: its answer (url, bytes, source, contentType) and the image's bytes.
 *
 * @param response the answer document
 * @param bytes the image, as many bytes as {@code response.bytes()}
 */
public record ImageData(ImagesDataResponse response, byte[] bytes) {
}
