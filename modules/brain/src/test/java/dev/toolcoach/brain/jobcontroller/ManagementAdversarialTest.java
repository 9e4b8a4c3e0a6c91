package dev.toolcoach.brain.jobcontroller;

import akka.actor.typed.ActorSystem;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.toolcoach.cluster.management.ManagementServer;
import dev.toolcoach.cluster.node.NodeProgram;
import dev.toolcoach.testkit.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A coach node's management port as a web page in a browser on the same machine, or a local process without the token,
 * meets it: every state-changing route, Akka Management's own included, refuses them; what a local client with the
 * credentials sends still goes through. Requests are written byte for byte ({@link RawHttp}), with any Host and Origin.
 */
class ManagementAdversarialTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String JOB = "{\"task\": \"finance\", \"name\": \"csrf\", \"steps\": 1}";

    @TempDir
    Path dir;
    private final TestNodes nodes = new TestNodes();

    @AfterEach
    void stop() {
        nodes.close();
    }

    private ActorSystem<?> coach(Map<String, String> settings) throws Exception {
        Files.createDirectories(dir.resolve("data"));
        Map<String, String> all = new java.util.HashMap<>(Map.of("akka.management.http.route-providers-read-only", "off",
                "toolcoach.jobs.data-dir", dir.resolve("data").toString()));
        all.putAll(settings);
        return nodes.start(NodeProgram.COACH, List.of(), dir.resolve("runs"), all);
    }

    @Test
    void withoutATokenABrowserPageOrARebindingNameChangesNothing() throws Exception {
        ActorSystem<?> coach = coach(Map.of("toolcoach.http.head-timeout", "1s"));
        URI base = ManagementServer.get(coach).url();
        URI jobs = base.resolve("/jobs");
        int port = base.getPort();

        Map<String, String> csrf = RawHttp.loopbackHeaders(jobs, "text/plain");
        csrf.put("Origin", "http://evil.example");
        assertRefused(RawHttp.send("POST", jobs, csrf, JOB, TIMEOUT), 403, "the request's Origin is another site");
        Map<String, String> rebound = Map.of("Host", "evil.example:" + port, "Content-Type", "application/json");
        assertRefused(RawHttp.send("POST", jobs, rebound, JOB, TIMEOUT), 403, "the Host header must name this loopback endpoint");
        Map<String, String> nullOrigin = RawHttp.loopbackHeaders(jobs, "application/json");
        nullOrigin.put("Origin", "null");
        assertRefused(RawHttp.send("POST", jobs, nullOrigin, JOB, TIMEOUT), 403, "the request's Origin is another site");
        URI cancel = base.resolve("/jobs/csrf/cancel");
        csrf.put("Host", "localhost:" + port);
        assertRefused(RawHttp.send("POST", cancel, csrf, "", TIMEOUT), 403, "the request's Origin is another site");

        URI self = self(coach, base);
        Map<String, String> leave = RawHttp.loopbackHeaders(self, "application/x-www-form-urlencoded");
        leave.put("Origin", "http://evil.example");
        assertRefused(RawHttp.send("PUT", self, leave, "operation=Leave", TIMEOUT), 403, "the request's Origin is another site");
        assertRefused(RawHttp.send("DELETE", self, Map.of("Host", "evil.example:" + port), "", TIMEOUT), 403,
                "the Host header must name this loopback endpoint");
        assertEquals(MemberStatus.up(), Cluster.get(coach).selfMember().status(), "the node did not leave");
        assertTrue(Files.notExists(dir.resolve("runs/csrf")), "no job was taken");

        // this machine's own clients, and every read, still get through
        assertEquals(404, RawHttp.send("POST", cancel, RawHttp.loopbackHeaders(cancel, "application/json"), "", TIMEOUT).status());
        Map<String, String> sameSite = RawHttp.loopbackHeaders(cancel, "application/json");
        sameSite.put("Origin", "http://127.0.0.1:" + port);
        assertEquals(404, RawHttp.send("POST", cancel, sameSite, "", TIMEOUT).status());
        assertEquals(200, RawHttp.send("GET", base.resolve("/cluster/members"), Map.of("Host", "evil.example"), "", TIMEOUT).status());
        // Akka Management's endless event stream is nobody's without a token: a few hundred would lock out loopback
        assertRefused(RawHttp.send("GET", base.resolve("/cluster/domain-events"), RawHttp.loopbackHeaders(base, "text/plain"), "",
                TIMEOUT), 403, "/cluster/domain-events streams without end");

        // the port is bound as every ToolCoach server is: a request head not sent whole in time closes the connection
        try (Socket slow = new Socket()) {
            slow.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            slow.setSoTimeout(10_000);
            slow.getOutputStream().write("GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            assertEquals(-1, slow.getInputStream().read(), "closed without an answer");
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "closed at the head timeout");
        }
    }

    @Test
    void withATokenEveryStateChangingRouteAkkasOwnIncludedNeedsIt() throws Exception {
        ActorSystem<?> coach = coach(Map.of("toolcoach.management.token", "s3cret"));
        URI base = ManagementServer.get(coach).url();
        URI self = self(coach, base);
        Map<String, String> leave = RawHttp.loopbackHeaders(self, "application/x-www-form-urlencoded");
        assertRefused(RawHttp.send("PUT", self, leave, "operation=Leave", TIMEOUT), 401, "no token given");
        leave.put("Authorization", "Bearer wrong");
        assertRefused(RawHttp.send("PUT", self, leave, "operation=Down", TIMEOUT), 401, "invalid token");
        assertRefused(RawHttp.send("DELETE", self, RawHttp.loopbackHeaders(self, "text/plain"), "", TIMEOUT), 401, "no token given");
        assertEquals(MemberStatus.up(), Cluster.get(coach).selfMember().status(), "the node did not leave");
        assertRefused(RawHttp.send("GET", base.resolve("/cluster/domain-events"), RawHttp.loopbackHeaders(base, "text/plain"), "",
                TIMEOUT), 401, "no token given");
        try (Socket stream = new Socket()) { // the token's holder gets the stream
            stream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), base.getPort()), 5_000);
            stream.setSoTimeout(10_000);
            stream.getOutputStream().write(("GET /cluster/domain-events HTTP/1.1\r\nHost: 127.0.0.1:" + base.getPort()
                    + "\r\nAuthorization: Bearer s3cret\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            byte[] head = new byte[12];
            assertEquals("HTTP/1.1 200", new String(head, 0, stream.getInputStream().readNBytes(head, 0, 12), StandardCharsets.US_ASCII));
        }

        Map<String, String> keyed = RawHttp.loopbackHeaders(base, "application/json");
        keyed.put("Authorization", "Bearer s3cret");
        String judge = "{\"task\": \"finance\", \"name\": \"j\", \"judge\": {\"endpoint\": {\"url\": \"http://127.0.0.1:9/v1\"}}}";
        RawHttp.Response refused = RawHttp.send("POST", base.resolve("/jobs"), keyed, judge, TIMEOUT);
        assertEquals(400, refused.status(), refused.body());
        assertTrue(error(refused).startsWith("judge.endpoint.url is not an endpoint this node may call"), refused.body());
    }

    /** {@code /cluster/members/<this node's address>}, where Akka Management's Leave and Down go. */
    private static URI self(ActorSystem<?> coach, URI base) {
        String address = Cluster.get(coach).selfMember().address().toString();
        return base.resolve("/cluster/members/" + URLEncoder.encode(address, StandardCharsets.UTF_8));
    }

    private static void assertRefused(RawHttp.Response response, int status, String why) throws Exception {
        assertEquals(status, response.status(), response.body());
        assertTrue(error(response).startsWith(why), response.body());
    }

    private static String error(RawHttp.Response response) throws Exception {
        return JSON.readTree(response.body()).path("error").asText();
    }
}
