package dev.toolcoach.cluster.node;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code toolcoach.cluster.tls} switch: Artery over TLS 1.3 with mutual authentication, so that only
 * nodes holding a key the cluster's trust store accepts can join or send a message.
 *
 * <p>Hostname verification is off on purpose: pods get addresses at run time, so certificates name the
 * cluster, not a host; the trust store (a private CA or the cluster's own certificate) is the boundary.
 */
public final class ArteryTls {

    private static final String TLS = "toolcoach.cluster.tls";
    private static final String ENGINE = "akka.remote.artery.ssl.config-ssl-engine";

    private ArteryTls() {
    }

    /** The configuration with Artery switched to TLS when {@code toolcoach.cluster.tls.enabled} is on. */
    public static Config apply(Config config) {
        if (!config.getBoolean(TLS + ".enabled")) {
            return config;
        }
        String keyStore = store(config, "key-store");
        String keyPassword = password(config, "key-store-password");
        String trustStore = store(config, "trust-store");
        String trustPassword = password(config, "trust-store-password");
        return ConfigFactory.empty()
                .withValue("akka.remote.artery.transport", ConfigValueFactory.fromAnyRef("tls-tcp"))
                .withValue(ENGINE + ".key-store", ConfigValueFactory.fromAnyRef(keyStore))
                .withValue(ENGINE + ".key-store-password", ConfigValueFactory.fromAnyRef(keyPassword))
                .withValue(ENGINE + ".key-password", ConfigValueFactory.fromAnyRef(keyPassword))
                .withValue(ENGINE + ".trust-store", ConfigValueFactory.fromAnyRef(trustStore))
                .withValue(ENGINE + ".trust-store-password", ConfigValueFactory.fromAnyRef(trustPassword))
                .withValue(ENGINE + ".protocol", ConfigValueFactory.fromAnyRef("TLSv1.3"))
                .withValue(ENGINE + ".enabled-algorithms",
                        ConfigValueFactory.fromIterable(List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256")))
                .withValue(ENGINE + ".require-mutual-authentication", ConfigValueFactory.fromAnyRef(true))
                .withValue(ENGINE + ".hostname-verification", ConfigValueFactory.fromAnyRef(false))
                .withFallback(config);
    }

    private static String store(Config config, String key) {
        String path = config.getString(TLS + "." + key);
        if (path.isBlank()) {
            throw new NodeConfigException(TLS + "." + key + " is empty: TLS needs this node's " + key);
        }
        Path file = Path.of(path);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw new NodeConfigException(TLS + "." + key + " = " + path + ": no readable file there");
        }
        return file.toAbsolutePath().toString();
    }

    private static String password(Config config, String key) {
        String password = config.getString(TLS + "." + key);
        if (password.isEmpty()) {
            throw new NodeConfigException(TLS + "." + key + " is empty");
        }
        return password;
    }
}
