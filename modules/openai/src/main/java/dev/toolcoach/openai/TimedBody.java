package dev.toolcoach.openai;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A reply body read as a stream that gives up when no bytes arrive for {@code idleTimeout}: the
 * JDK's own body streams block forever on a server that sends headers and then stalls, which for
 * a server-sent-events reply is exactly when it matters. Reads one chunk ahead, so a slow reader
 * slows the server.
 */
final class TimedBody extends InputStream implements Flow.Subscriber<List<ByteBuffer>> {

    /** Thrown by a read that waited longer than the idle timeout. */
    static final class IdleTimeout extends IOException {
        IdleTimeout(String message) {
            super(message);
        }
    }

    private static final Object END = new Object();

    private final Duration idleTimeout;
    private final BlockingQueue<Object> arrivals = new LinkedBlockingQueue<>();
    private volatile Flow.Subscription subscription;
    private ByteBuffer current = ByteBuffer.allocate(0);
    private List<ByteBuffer> pending = List.of();
    private int pendingIndex;
    private boolean ended;

    TimedBody(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        arrivals.add(item);
    }

    @Override
    public void onError(Throwable t) {
        arrivals.add(t);
    }

    @Override
    public void onComplete() {
        arrivals.add(END);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) return 0;
        while (!current.hasRemaining()) {
            if (!advance()) return -1;
        }
        int n = Math.min(length, current.remaining());
        current.get(into, offset, n);
        return n;
    }

    /** Moves to the next buffer, waiting for the next chunk if needed; false at the end of the body. */
    private boolean advance() throws IOException {
        if (pendingIndex < pending.size()) {
            current = pending.get(pendingIndex++);
            return true;
        }
        if (ended) return false;
        Object next;
        try {
            next = arrivals.poll(idleTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the reply", e);
        }
        if (next == null) throw new IdleTimeout("no data for " + idleTimeout.toMillis() + " ms");
        if (next == END) {
            ended = true;
            return false;
        }
        if (next instanceof Throwable t) throw t instanceof IOException io ? io : new IOException(t.getMessage(), t);
        @SuppressWarnings("unchecked")
        List<ByteBuffer> chunk = (List<ByteBuffer>) next;
        pending = chunk;
        pendingIndex = 0;
        subscription.request(1);
        return true;
    }

    @Override
    public void close() {
        Flow.Subscription s = subscription;
        if (s != null && !ended) s.cancel();
        ended = true;
    }
}
