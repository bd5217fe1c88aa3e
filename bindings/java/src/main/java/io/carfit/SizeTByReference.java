package io.carfit;

import com.sun.jna.ptr.ByReference;

/** A size_t out-parameter of the platform's width (8 bytes on 64-bit hosts, 4 on 32-bit). */
final class SizeTByReference extends ByReference {
    SizeTByReference() {
        super(com.sun.jna.Native.SIZE_T_SIZE);
        if (com.sun.jna.Native.SIZE_T_SIZE == 8) {
            getPointer().setLong(0, 0);
        } else {
            getPointer().setInt(0, 0);
        }
    }

    long value() {
        return com.sun.jna.Native.SIZE_T_SIZE == 8 ? getPointer().getLong(0) : getPointer().getInt(0) & 0xFFFFFFFFL;
    }
}
