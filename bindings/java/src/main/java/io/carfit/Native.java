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

    int carfit_visits_attachment_data(Pointer core, String request, PointerByReference bytes, Pointer length,
                                      PointerByReference response);

    /**
     * The loaded library: the file CARFIT_LIBRARY names, else "carfit" found by JNA's search
     * (jna.library.path, then the system's). Loaded on first use; a failure is thrown again on
     * every use until a load succeeds.
     */
    static Native library() {
        Native library = Holder.loaded;
        if (library == null) {
            synchronized (Holder.class) {
                library = Holder.loaded;
                if (library == null) {
                    library = Holder.load();
                    Holder.loaded = library;
                }
            }
        }
        return library;
    }

    /** The library once loaded. */
    final class Holder {
        private static volatile Native loaded;

        private Holder() {
        }

        private static Native load() {
            String path = System.getenv("CARFIT_LIBRARY");
            String name = path != null && !path.isEmpty() ? path : "carfit";
            Native library;
            try {
                library = com.sun.jna.Native.load(name, Native.class,
                        Map.of(Library.OPTION_STRING_ENCODING, "UTF-8"));
            } catch (UnsatisfiedLinkError missing) {
                UnsatisfiedLinkError error = new UnsatisfiedLinkError("Cannot load libcarfit ("
                        + (name.equals("carfit") ? "libcarfit.so on jna.library.path or the system's library path; "
                        + "set CARFIT_LIBRARY to its path" : "CARFIT_LIBRARY=" + name) + "): " + missing.getMessage());
                error.initCause(missing);
                throw error;
            }
            int major = library.carfit_version_number() / 10000;
            if (major != Operations.MAJOR) {
                throw new UnsatisfiedLinkError("libcarfit " + library.carfit_version() + " (" + name
                        + ") is not of major version " + Operations.MAJOR + ", which this package was generated for");
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
