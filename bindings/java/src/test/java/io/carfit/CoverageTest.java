package io.carfit;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The package covers the contract, and the tests cover the package. */
class CoverageTest {
    static String lowerCamel(String method) {
        StringBuilder out = new StringBuilder();
        boolean upper = false;
        for (char c : method.toCharArray()) {
            if (c == '.' || c == '_') {
                upper = true;
            } else {
                out.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return out.toString();
    }

    @Test
    void everyOperationOfTheSchemaHasItsTypedMethod() throws IOException {
        JsonObject schema = JsonParser.parseString(
                Files.readString(Fixtures.root().resolve("include/carfit.schema.json"))).getAsJsonObject();
        List<String> operations = new ArrayList<>(schema.getAsJsonObject("operations").keySet());
        assertEquals(operations, Operations.METHODS);
        for (String operation : operations) {
            String name = lowerCamel(operation);
            Method method = Stream.of(Operations.class.getMethods()).filter(m -> m.getName().equals(name))
                    .findFirst().orElseThrow(() -> new AssertionError("no method " + name));
            String base = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            assertEquals(base + "Request", method.getParameterTypes()[0].getSimpleName());
            String answer = method.getReturnType().getSimpleName();
            assertEquals(base + "Response", answer);
        }
    }

    @Test
    void everyTypedMethodIsCalledByATest() throws IOException {
        Path tests = Fixtures.root().resolve("bindings/java/src/test/java/io/carfit");
        StringBuilder text = new StringBuilder();
        try (Stream<Path> files = Files.list(tests)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                if (!file.getFileName().toString().equals("CoverageTest.java")) {
                    text.append(Files.readString(file));
                }
            }
        }
        List<String> uncalled = new ArrayList<>();
        for (String operation : Operations.METHODS) {
            if (!text.toString().contains("." + lowerCamel(operation) + "(new ")
                    && !text.toString().contains("." + lowerCamel(operation) + "(\n")
                    && !text.toString().contains("." + lowerCamel(operation) + "(Core.GSON")) {
                uncalled.add(lowerCamel(operation));
            }
        }
        assertEquals(List.of(), uncalled, "typed methods no test calls");
    }
}
