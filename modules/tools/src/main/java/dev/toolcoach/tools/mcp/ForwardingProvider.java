package dev.toolcoach.tools.mcp;

import io.modelcontextprotocol.spec.McpServerTransportProviderBase;
import reactor.core.publisher.Mono;

import java.util.List;

/** A transport provider that hands everything to another, for wrappers that change only how sessions are made. */
abstract class ForwardingProvider<P extends McpServerTransportProviderBase> implements McpServerTransportProviderBase {

    protected final P provider;

    ForwardingProvider(P provider) {
        this.provider = provider;
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return provider.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return provider.notifyClient(sessionId, method, params);
    }

    @Override
    public Mono<Void> closeGracefully() {
        return provider.closeGracefully();
    }

    @Override
    public void close() {
        provider.close();
    }

    @Override
    public List<String> protocolVersions() {
        return provider.protocolVersions();
    }
}
