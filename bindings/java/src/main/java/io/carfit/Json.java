package io.carfit;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonDeserializationContext;
import com.google.gson.JsonDeserializer;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.TypeAdapter;
import com.google.gson.TypeAdapterFactory;
import com.google.gson.annotations.SerializedName;
import com.google.gson.reflect.TypeToken;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonWriter;

import java.io.IOException;

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
        GsonBuilder builder = new GsonBuilder().disableHtmlEscaping().registerTypeAdapterFactory(new NullsItSends());
        for (Class<?> sealed : Operations.SEALED) {
            builder.registerTypeAdapter(sealed, new ByKind(sealed));
        }
        return builder.create();
    }

    /** Writes the null of a {@link SendsNull} component as null (Gson leaves every other null out). */
    private static final class NullsItSends implements TypeAdapterFactory {
        @Override
        public <T> TypeAdapter<T> create(Gson gson, TypeToken<T> type) {
            Class<?> raw = type.getRawType();
            if (!raw.isRecord()) {
                return null;
            }
            java.util.List<String> names = new java.util.ArrayList<>();
            for (RecordComponent component : raw.getRecordComponents()) {
                if (component.isAnnotationPresent(SendsNull.class)) {
                    SerializedName name = component.getAnnotation(SerializedName.class);
                    if (name == null) {
                        try {
                            name = raw.getDeclaredField(component.getName()).getAnnotation(SerializedName.class);
                        } catch (NoSuchFieldException none) {
                            name = null;
                        }
                    }
                    names.add(name != null ? name.value() : component.getName());
                }
            }
            if (names.isEmpty()) {
                return null;
            }
            TypeAdapter<T> delegate = gson.getDelegateAdapter(this, type);
            TypeAdapter<JsonElement> elements = gson.getAdapter(JsonElement.class);
            return new TypeAdapter<T>() {
                @Override
                public void write(JsonWriter out, T value) throws IOException {
                    JsonElement tree = delegate.toJsonTree(value);
                    if (value == null || !tree.isJsonObject()) {
                        elements.write(out, tree);
                        return;
                    }
                    JsonObject object = tree.getAsJsonObject();
                    out.beginObject();
                    for (Map.Entry<String, JsonElement> member : object.entrySet()) {
                        boolean nulls = out.getSerializeNulls();
                        if (member.getValue().isJsonNull() && names.contains(member.getKey())) {
                            out.setSerializeNulls(true);
                        }
                        out.name(member.getKey());
                        elements.write(out, member.getValue());
                        out.setSerializeNulls(nulls);
                    }
                    for (String name : names) {
                        if (!object.has(name)) {
                            boolean nulls = out.getSerializeNulls();
                            out.setSerializeNulls(true);
                            out.name(name).nullValue();
                            out.setSerializeNulls(nulls);
                        }
                    }
                    out.endObject();
                }

                @Override
                public T read(JsonReader in) throws IOException {
                    return delegate.read(in);
                }
            };
        }
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
