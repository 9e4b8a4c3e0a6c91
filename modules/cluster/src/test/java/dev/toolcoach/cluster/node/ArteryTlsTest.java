package dev.toolcoach.cluster.node;

import akka.actor.testkit.typed.javadsl.TestProbe;
import akka.actor.typed.ActorSystem;
import akka.cluster.Member;
import akka.cluster.MemberStatus;
import akka.cluster.typed.Cluster;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import dev.toolcoach.testkit.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TLS switch on real nodes: two nodes holding the cluster's key form a cluster over TLS, and a client
 * whose certificate the trust store does not hold cannot complete a handshake with a node's Artery port.
 */
class ArteryTlsTest {

    private static final String PASSWORD = "cluster-secret";
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    private final List<ActorSystem<?>> systems = new ArrayList<>();

    @AfterEach
    void stop() {
        systems.forEach(ActorSystem::terminate);
        systems.forEach(s -> s.getWhenTerminated().toCompletableFuture().join());
    }

    @Test
    void nodesHoldingTheClusterKeyJoinOverTlsAndStrangersCannotHandshake() throws Exception {
        Path cluster = keyPair("cluster");
        Path nodeConfig = tlsConfig(cluster, cluster);
        ActorSystem<?> coach = start(NodeProgram.COACH, nodeConfig, List.of());
        assertEquals("tls-tcp", coach.settings().config().getString("akka.remote.artery.transport"));
        String seed = Cluster.get(coach).selfMember().address().toString();
        start(NodeProgram.ATHLETE, nodeConfig, List.of(seed));
        TestProbe<Void> probe = TestProbe.create(coach);
        probe.awaitAssert(DEADLINE, () -> {
            assertEquals(2, upMembers(coach));
            return null;
        });

        int port = Cluster.get(coach).selfMember().address().getPort().get();
        // the stranger trusts the node, so only the node's refusal of the stranger's certificate can fail it
        Path stranger = keyPair("stranger");
        assertThrows(SSLException.class, () -> handshake(stranger, cluster, port),
                "the node must refuse a client whose certificate its trust store does not hold");
        handshake(cluster, cluster, port); // the cluster's own key is accepted
    }

    @Test
    void tlsWithoutAReadableKeyStoreIsOneClearError() throws IOException {
        Path missing = dir.resolve("absent.p12");
        Path config = tlsConfig(missing, missing);
        NodeConfigException e = assertThrows(NodeConfigException.class,
                () -> NodeConfigLoader.load(NodeProgram.COACH, overrides(config, List.of()), Map.of()));
        assertEquals("toolcoach.cluster.tls.key-store = " + missing + ": no readable file there", e.getMessage());
    }

    private ActorSystem<?> start(NodeProgram program, Path nodeConfig, List<String> seeds) {
        Config config = ConfigFactory.parseResources("application-test.conf")
                .withFallback(NodeConfigLoader.load(program, overrides(nodeConfig, seeds), Map.of()));
        ActorSystem<?> system = NodeLauncher.start(config, NodeSettings.fromConfig(config));
        systems.add(system);
        return system;
    }

    private static NodeOverrides overrides(Path nodeConfig, List<String> seeds) {
        return new NodeOverrides(Optional.of(nodeConfig), Optional.empty(), Optional.of("127.0.0.1"), Optional.of(0),
                Optional.of(seeds), Optional.of("127.0.0.1"), Optional.of(FreePorts.pick()), Optional.of(1),
                Optional.of(List.of("arithmetic")));
    }

    private Path tlsConfig(Path keyStore, Path trustStore) throws IOException {
        Path file = dir.resolve("tls-" + keyStore.getFileName() + ".conf");
        Files.writeString(file, """
                toolcoach.cluster.tls {
                  enabled = on
                  key-store = "%s"
                  key-store-password = "%s"
                  trust-store = "%s"
                  trust-store-password = "%s"
                }
                """.formatted(keyStore, PASSWORD, trustStore, PASSWORD));
        return file;
    }

    /** A PKCS12 store with one self-signed key, made by the JDK's keytool as a user would. */
    private Path keyPair(String name) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", name, "-keyalg", "EC",
                "-groupname", "secp256r1", "-dname", "CN=" + name, "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "keytool did not finish");
        assertEquals(0, p.exitValue(), "keytool failed: " + output);
        return store;
    }

    /** A TLS 1.3 session with the node's Artery port, presenting the key of {@code keyStore}. */
    private static void handshake(Path keyStore, Path trustStore, int port) throws Exception {
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(load(keyStore), PASSWORD.toCharArray());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(load(trustStore));
        SSLContext context = SSLContext.getInstance("TLSv1.3");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(5000);
            socket.startHandshake();
            // TLS 1.3 clients learn of a rejected certificate only at the first read after the handshake
            socket.getOutputStream().write("AKKA".getBytes());
            socket.getOutputStream().flush();
            try {
                socket.getInputStream().read();
            } catch (java.net.SocketTimeoutException stillOpen) {
                // the node kept the connection: it accepted the client's certificate
            }
        }
    }

    private static KeyStore load(Path store) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        return keys;
    }

    private static long upMembers(ActorSystem<?> observer) {
        long up = 0;
        for (Member m : Cluster.get(observer).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                up++;
            }
        }
        return up;
    }
}
