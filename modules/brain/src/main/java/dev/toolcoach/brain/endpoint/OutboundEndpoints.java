package dev.toolcoach.brain.endpoint;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import dev.toolcoach.openai.OpenAiConfig;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The OpenAI-compatible endpoints this process may call for what a job names (a judge, a tool selector), each with the
 * key configured for it: a call carries that key and no other, and a URL under none of them is refused. There is no
 * ambient key: a job that names a listener of its own gets nothing sent there, least of all the node's credentials.
 *
 * <p>On a coach node they are {@code toolcoach.jobs.endpoints}; for a command they are the URLs its options name, with
 * {@code $OPENAI_API_KEY} (the user typed both). A URL is under an endpoint when scheme, host and port are the same and
 * its path is the endpoint's or below it; a loopback or internal address is therefore refused unless listed.
 *
 * @param endpoints the API roots that may be called, each with its key
 */
public record OutboundEndpoints(List<Endpoint> endpoints) {

    /**
     * One API root that may be called.
     *
     * @param root   e.g. {@code https://api.openai.com/v1}: URLs at or below it are allowed
     * @param apiKey the bearer key calls to it carry, empty for none
     */
    public record Endpoint(URI root, String apiKey) {
        public Endpoint {
            Objects.requireNonNull(root, "root");
            apiKey = apiKey == null ? "" : apiKey;
        }

        boolean covers(URI url) {
            return root.getScheme().equalsIgnoreCase(url.getScheme()) && root.getHost().equalsIgnoreCase(url.getHost())
                    && port(root) == port(url) && (path(url).equals(path(root)) || path(url).startsWith(path(root) + "/"));
        }

        @Override
        public String toString() {
            return "Endpoint[" + root + ", apiKey=" + (apiKey.isEmpty() ? "none" : "***") + "]";
        }
    }

    public OutboundEndpoints {
        endpoints = List.copyOf(endpoints);
    }

    /** No endpoint: a job that names one is refused. */
    public static OutboundEndpoints none() {
        return new OutboundEndpoints(List.of());
    }

    /** These endpoints and {@code more}'s, each with its own key (an URL under both is called with these' key). */
    public OutboundEndpoints and(OutboundEndpoints more) {
        List<Endpoint> all = new ArrayList<>(endpoints);
        all.addAll(more.endpoints);
        return new OutboundEndpoints(all);
    }

    /** The URLs a user named, each with {@code apiKey}; null ones, and any that is no plain URL ({@link #check} refuses it), left out. */
    public static OutboundEndpoints named(Collection<String> urls, String apiKey) {
        List<Endpoint> list = new ArrayList<>();
        for (String url : urls) {
            if (url == null) continue;
            try {
                list.add(new Endpoint(plainUrl("", url), apiKey));
            } catch (IllegalArgumentException notPlain) {
                // refused with its field's name when it is used
            }
        }
        return new OutboundEndpoints(list);
    }

    /**
     * Reads {@code endpoints} of {@code jobs} (the {@code toolcoach.jobs} section): a list of {@code {url, api-key}}.
     *
     * @throws IllegalArgumentException naming the entry and field that cannot be used
     */
    public static OutboundEndpoints fromConfig(Config jobs) {
        List<Endpoint> list = new ArrayList<>();
        List<? extends Config> entries = jobs.getConfigList("endpoints");
        for (int i = 0; i < entries.size(); i++) {
            String name = "toolcoach.jobs.endpoints[" + i + "]";
            Config entry = entries.get(i);
            try {
                list.add(new Endpoint(plainUrl(name + ".url", entry.getString("url")),
                        entry.hasPath("api-key") ? entry.getString("api-key") : ""));
            } catch (ConfigException e) {
                throw new IllegalArgumentException(name + " needs a url (and may give an api-key): " + e.getMessage(), e);
            }
        }
        return new OutboundEndpoints(list);
    }

    /**
     * The endpoint {@code url} is under.
     *
     * @param field the request field that named it, for the refusal (e.g. {@code judge.endpoint.url})
     * @throws IllegalArgumentException naming {@code field} when the URL is not a plain http(s) URL under a listed endpoint
     */
    public Endpoint check(String field, String url) {
        URI uri = plainUrl(field, url);
        return endpoints.stream().filter(e -> e.covers(uri)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                field + " is not an endpoint this node may call (its toolcoach.jobs.endpoints lists those it may)"));
    }

    /** A client config for {@code url}, with the key of the endpoint it is under and no other. */
    public OpenAiConfig config(String field, String url, String model) {
        return OpenAiConfig.of(url, model).withApiKey(check(field, url).apiKey());
    }

    /** An absolute http(s) URL with a host and nothing that could smuggle another destination or a credential. */
    private static URI plainUrl(String field, String url) {
        URI uri;
        try {
            uri = new URI(url).normalize();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(field + " is not a valid URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null || uri.getRawUserInfo() != null
                || uri.getRawQuery() != null || uri.getRawFragment() != null || List.of(uri.getPath().split("/")).contains("..")) {
            throw new IllegalArgumentException(field + " must be a plain http(s) URL: a host, a port and a path, no user, query or fragment");
        }
        return uri;
    }

    private static int port(URI uri) {
        if (uri.getPort() >= 0) return uri.getPort();
        return uri.getScheme().equalsIgnoreCase("https") ? 443 : 80;
    }

    private static String path(URI uri) {
        String p = uri.getPath() == null ? "" : uri.getPath();
        return p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }
}
