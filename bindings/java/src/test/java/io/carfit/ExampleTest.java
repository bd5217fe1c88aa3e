package io.carfit;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The README's example is examples/Day.java, and it runs. */
class ExampleTest {
    @Test
    void theReadmeShowsTheExampleAsItIs() throws Exception {
        Path java = Fixtures.root().resolve("bindings/java");
        String readme = Files.readString(java.resolve("README.md"));
        String example = Files.readString(java.resolve("examples/Day.java"));
        assertTrue(readme.contains("```java\n" + example + "```"), "README.md's Java example differs from examples/Day.java");
    }

    @Test
    void theExampleRuns() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Class.forName("Day").getMethod("main", String[].class).invoke(null, (Object) new String[] {
                Fixtures.root().resolve("examples/data/carfit.json").toString()});
        } finally {
            System.setOut(out);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("10:05  "), text);
        assertTrue(text.contains("changed: [visits"), text);
    }
}
