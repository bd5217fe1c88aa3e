package io.carfit;

import com.google.gson.JsonObject;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/** The tests' config, the repository's example data and a loopback HTTP server. */
final class Fixtures {
    /** The fixed clock and zone of the example day (2020-09-10 in Copenhagen). */
    static final String NOW = "2020-09-10T07:00:00Z";

    /** A 1x1 PNG. */
    static final byte[] PNG = Base64.getDecoder().decode(
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==");

    private Fixtures() {
    }

    /** The repository (bindings/java/build passes it). */
    static Path root() {
        return Path.of(System.getProperty("carfit.root", "../.."));
    }

    static String example(String name) {
        try {
            return Files.readString(root().resolve("examples/data").resolve(name), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A config: an in-memory database, the example day's clock and zone, and extra members. */
    static String config(JsonObject extra) {
        JsonObject config = new JsonObject();
        config.addProperty("database", ":memory:");
        config.addProperty("now", NOW);
        config.addProperty("timeZone", "Europe/Copenhagen");
        config.addProperty("hour24", true);
        if (extra != null) {
            extra.entrySet().forEach(e -> config.add(e.getKey(), e.getValue()));
        }
        return config.toString();
    }

    static Core open() {
        return Core.open(config(null));
    }

    /** A loopback port nobody listens on. */
    static int refusedPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A loopback server of the example documents, an image and a 401. */
    static HttpServer server() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        serve(server, "/visits", "application/json", example("carfit.json").getBytes(StandardCharsets.UTF_8), 200);
        serve(server, "/articles", "application/json", example("articles.json").getBytes(StandardCharsets.UTF_8), 200);
        serve(server, "/catalog", "application/json", example("catalog.json").getBytes(StandardCharsets.UTF_8), 200);
        serve(server, "/patterns", "application/json", example("patterns.json").getBytes(StandardCharsets.UTF_8), 200);
        serve(server, "/updates", "application/json", "{}".getBytes(StandardCharsets.UTF_8), 200);
        serve(server, "/image.png", "image/png", PNG, 200);
        serve(server, "/refused", "application/json", "{}".getBytes(StandardCharsets.UTF_8), 401);
        server.start();
        return server;
    }

    static String url(HttpServer server, String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static void serve(HttpServer server, String path, String type, byte[] body, int status) {
        server.createContext(path, exchange -> {
            exchange.getResponseHeaders().add("Content-Type", type);
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
    }
}
