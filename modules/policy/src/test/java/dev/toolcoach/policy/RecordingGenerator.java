package dev.toolcoach.policy;

import dev.toolcoach.lm.Generation;
import dev.toolcoach.lm.GenerationRequest;
import dev.toolcoach.agent.Generator;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

/** Passes every request to the real generator and keeps each request and reply, in order, for the assertions. */
final class RecordingGenerator implements Generator {

    private final Generator inner;
    private final Runnable afterFirstReply;
    final List<GenerationRequest> requests = new CopyOnWriteArrayList<>();
    final List<Generation> replies = new CopyOnWriteArrayList<>();

    RecordingGenerator(Generator inner, Runnable afterFirstReply) {
        this.inner = inner;
        this.afterFirstReply = afterFirstReply;
    }

    @Override
    public CompletionStage<Generation> generate(GenerationRequest request) {
        requests.add(request);
        return inner.generate(request).thenApply(reply -> {
            replies.add(reply);
            if (replies.size() == 1) afterFirstReply.run();
            return reply;
        });
    }
}
