package io.carfit;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonDeserializationContext;
import com.google.gson.JsonDeserializer;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.HashMap;
import java.util.Map;

/** The package's Gson: records both ways, sealed interfaces (Event) read by their "kind". */
final class Json {
    private Json() {
    }

    static Gson gson() {
        GsonBuilder builder = new GsonBuilder().disableHtmlEscaping();
        for (Class<?> sealed : Operations.SEALED) {
            builder.registerTypeAdapter(sealed, new ByKind(sealed));
        }
        return builder.create();
    }

    /** Reads an object of a sealed interface as the variant its "kind" names, else its Other. */
    private static final class ByKind implements JsonDeserializer<Object> {
        private final Map<String, Class<?>> variants = new HashMap<>();
        private Class<?> other;

        ByKind(Class<?> sealed) {
            for (Class<?> variant : sealed.getPermittedSubclasses()) {
                try {
                    variants.put((String) variant.getField("KIND").get(null), variant);
                } catch (NoSuchFieldException | IllegalAccessException none) {
                    other = variant;  // the variant of the kinds a newer library adds
                }
            }
        }

        @Override
        public Object deserialize(JsonElement json, Type type, JsonDeserializationContext context) {
            if (json == null || json.isJsonNull()) {
                return null;
            }
            if (!json.isJsonObject()) {
                throw new JsonParseException("not an object: " + json);
            }
            JsonObject object = json.getAsJsonObject();
            JsonElement kind = object.get("kind");
            Class<?> variant = kind != null && kind.isJsonPrimitive() ? variants.get(kind.getAsString()) : null;
            if (variant != null) {
                return context.deserialize(object, variant);
            }
            if (other == null) {
                throw new JsonParseException("unknown kind " + kind);
            }
            RecordComponent[] components = other.getRecordComponents();
            Object[] values = new Object[components.length];
            Class<?>[] types = new Class<?>[components.length];
            for (int i = 0; i < components.length; i++) {
                types[i] = components[i].getType();
                if (components[i].getType() == JsonObject.class) {
                    values[i] = object;
                } else {
                    Object value = context.deserialize(object.get(components[i].getName()),
                            components[i].getGenericType());
                    values[i] = value == null && types[i] == long.class ? Long.valueOf(0) : value;
                }
            }
            try {
                Constructor<?> constructor = other.getDeclaredConstructor(types);
                return constructor.newInstance(values);
            } catch (ReflectiveOperationException wrong) {
                throw new JsonParseException(wrong);
            }
        }
    }
}
