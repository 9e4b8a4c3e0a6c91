package dev.toolcoach.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * HTTP/1.1 requests written byte for byte to a loopback server, for the adversarial tests: any {@code Host} or
 * {@code Origin} a browser or an attacker would send (Java's HttpClient refuses to set {@code Host}), one request per
 * connection ({@code Connection: close}), bounded by a read timeout.
 */
public final class RawHttp {

    /** The answer: status and body. */
    public record Response(int status, String body) {
    }

    private RawHttp() {
    }

    /**
     * Sends one request to {@code url}'s port on loopback.
     *
     * @param headers headers as given, {@code Host} included when wanted (none is added but Content-Length and Connection)
     */
    public static Response send(String method, URI url, Map<String, String> headers, String body, Duration timeout) {
        return send(method, url, headers, body, timeout, null);
    }

    /** As {@link #send(String, URI, Map, String, Duration)}, from the local address {@code from} (another client's). */
    public static Response send(String method, URI url, Map<String, String> headers, String body, Duration timeout,
                                InetAddress from) {
        byte[] content = body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method + " " + url.getRawPath()
                + (url.getRawQuery() == null ? "" : "?" + url.getRawQuery()) + " HTTP/1.1\r\n");
        headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
        head.append("Content-Length: ").append(content.length).append("\r\nConnection: close\r\n\r\n");
        try (Socket socket = new Socket()) {
            if (from != null) socket.bind(new InetSocketAddress(from, 0));
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), url.getPort()), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            socket.getOutputStream().write(head.toString().getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().write(content);
            socket.getOutputStream().flush();
            return parse(socket.getInputStream());
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + url + ": " + e.getMessage(), e);
        }
    }

    /** The usual headers a loopback client sends: {@code Host: 127.0.0.1:<port>} and the given content type. */
    public static Map<String, String> loopbackHeaders(URI url, String contentType) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "127.0.0.1:" + url.getPort());
        headers.put("Content-Type", contentType);
        return headers;
    }

    private static Response parse(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        String text = all.toString(StandardCharsets.UTF_8);
        int headEnd = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || headEnd < 0) throw new IOException("not an HTTP response: " + text);
        int status = Integer.parseInt(text.substring(9, 12));
        String body = text.substring(headEnd + 4);
        if (text.substring(0, headEnd).toLowerCase().contains("transfer-encoding: chunked")) body = unchunk(body);
        return new Response(status, body);
    }

    private static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < chunked.length()) {
            int lineEnd = chunked.indexOf("\r\n", at);
            if (lineEnd < 0) break;
            int size = Integer.parseInt(chunked.substring(at, lineEnd).strip(), 16);
            if (size == 0) break;
            out.append(chunked, lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}
