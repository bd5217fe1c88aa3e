package io.carfit;

import com.sun.jna.Library;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;

import java.util.Map;

/** The C functions of carfit.h this package calls, bound by JNA. */
interface Native extends Library {
    int carfit_open(String config, PointerByReference core, PointerByReference response);

    void carfit_close(Pointer core);

    void carfit_free(Pointer p);

    String carfit_version();

    int carfit_version_number();

    int carfit_call(Pointer core, String method, String request, PointerByReference response);

    int carfit_images_data(Pointer core, String request, PointerByReference bytes, Pointer length,
                           PointerByReference response);

    /** The loaded library: the file CARFIT_LIBRARY names, else "carfit" found by JNA's search. */
    static Native library() {
        return Holder.LIBRARY;
    }

    /** Loads the library once, on first use. */
    final class Holder {
        static final Native LIBRARY = load();

        private Holder() {
        }

        private static Native load() {
            String path = System.getenv("CARFIT_LIBRARY");
            String name = path != null && !path.isEmpty() ? path : "carfit";
            Native library = com.sun.jna.Native.load(name, Native.class,
                    Map.of(Library.OPTION_STRING_ENCODING, "UTF-8"));
            int major = library.carfit_version_number() / 10000;
            if (major != Core.MAJOR) {
                throw new UnsatisfiedLinkError("libcarfit " + library.carfit_version() + " is not of major version "
                        + Core.MAJOR + " that this package was generated for (" + name + ")");
            }
            return library;
        }
    }

    /** The UTF-8 text a response pointer holds, freed with carfit_free; null for none. */
    static String take(Native library, Pointer text) {
        if (text == null) {
            return null;
        }
        try {
            return text.getString(0, "UTF-8");
        } finally {
            library.carfit_free(text);
        }
    }
}
