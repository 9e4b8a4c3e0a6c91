package dev.toolcoach.openai.http;

import akka.NotUsed;
import akka.http.javadsl.model.HttpRequest;
import akka.http.javadsl.model.HttpResponse;
import akka.http.javadsl.model.ResponseEntity;
import akka.stream.Attributes;
import akka.stream.BidiShape;
import akka.stream.Inlet;
import akka.stream.Outlet;
import akka.stream.javadsl.BidiFlow;
import akka.stream.javadsl.Flow;
import akka.stream.stage.AbstractInHandler;
import akka.stream.stage.AbstractOutHandler;
import akka.stream.stage.AsyncCallback;
import akka.stream.stage.GraphStage;
import akka.stream.stage.TimerGraphStageLogic;
import akka.util.ByteString;

import java.time.Duration;

/**
 * One connection's requests and responses, watched: while no request is in progress (from its head's arrival until its
 * response has been sent whole, a streamed one included) the connection must deliver a whole request head within
 * {@code headTimeout}, else it is closed; the {@link ConnectionGate} knows at every moment whether it is busy, and
 * can close it. Akka HTTP 10.2 has no header timeout of its own: its idle timeout counts any byte, so a client
 * dribbling its head a byte at a time was never cut.
 */
final class HeadWatchdog extends GraphStage<BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse>> {

    private static final String HEAD = "head";

    private final Inlet<HttpRequest> requestIn = Inlet.create("HeadWatchdog.requestIn");
    private final Outlet<HttpRequest> requestOut = Outlet.create("HeadWatchdog.requestOut");
    private final Inlet<HttpResponse> responseIn = Inlet.create("HeadWatchdog.responseIn");
    private final Outlet<HttpResponse> responseOut = Outlet.create("HeadWatchdog.responseOut");
    private final BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape =
            BidiShape.of(requestIn, requestOut, responseIn, responseOut);
    private final ConnectionGate.Ticket ticket;
    private final Duration headTimeout;

    private HeadWatchdog(ConnectionGate.Ticket ticket, Duration headTimeout) {
        this.ticket = ticket;
        this.headTimeout = headTimeout;
    }

    /** {@code handler} behind the watchdog of the connection {@code ticket} stands for. */
    static Flow<HttpRequest, HttpResponse, NotUsed> watching(ConnectionGate.Ticket ticket, Duration headTimeout,
                                                             Flow<HttpRequest, HttpResponse, NotUsed> handler) {
        return BidiFlow.fromGraph(new HeadWatchdog(ticket, headTimeout)).join(handler);
    }

    @Override
    public BidiShape<HttpRequest, HttpRequest, HttpResponse, HttpResponse> shape() {
        return shape;
    }

    @Override
    public TimerGraphStageLogic createLogic(Attributes attributes) {
        return new TimerGraphStageLogic(shape) {
            private int inProgress;
            private AsyncCallback<NotUsed> responseSent;

            {
                setHandler(requestIn, new AbstractInHandler() {
                    @Override
                    public void onPush() {
                        cancelTimer(HEAD);
                        inProgress++;
                        ticket.busy(true);
                        push(requestOut, grab(requestIn));
                    }

                    @Override
                    public void onUpstreamFinish() {
                        complete(requestOut); // the client sent all it will; its last response still goes out
                    }

                    @Override
                    public void onUpstreamFailure(Throwable failure) {
                        // e.g. a body over the size limit: its 413 still goes out, then the connection closes
                        // normally (failing the stage would abort it, and the client could lose the answer)
                        complete(requestOut);
                    }
                });
                setHandler(requestOut, new AbstractOutHandler() {
                    @Override
                    public void onPull() {
                        pull(requestIn);
                    }
                });
                setHandler(responseIn, new AbstractInHandler() {
                    @Override
                    public void onPush() {
                        HttpResponse response = grab(responseIn);
                        ResponseEntity entity = response.entity();
                        if (entity.isStrict()) {
                            push(responseOut, response);
                            sent();
                        } else {
                            push(responseOut, response.withEntity(whenSent(entity)));
                        }
                    }
                });
                setHandler(responseOut, new AbstractOutHandler() {
                    @Override
                    public void onPull() {
                        pull(responseIn);
                    }
                });
            }

            /** The entity, telling this stage when its last byte has gone out (or it failed). */
            @SuppressWarnings({"unchecked", "rawtypes"}) // Scala's Flow[ByteString, ByteString, Any]; the javadsl has no transformDataBytes
            private ResponseEntity whenSent(ResponseEntity entity) {
                Flow<ByteString, ByteString, NotUsed> watched = Flow.of(ByteString.class).watchTermination((mat, done) -> {
                    done.whenComplete((d, failure) -> responseSent.invoke(NotUsed.getInstance()));
                    return mat;
                });
                return ((akka.http.scaladsl.model.ResponseEntity) entity).transformDataBytes((akka.stream.scaladsl.Flow) watched.asScala());
            }

            @Override
            public void preStart() {
                responseSent = createAsyncCallback(n -> sent());
                AsyncCallback<NotUsed> evicted = createAsyncCallback(n -> completeStage());
                ticket.onEvict(() -> evicted.invoke(NotUsed.getInstance()));
                scheduleOnce(HEAD, headTimeout);
            }

            private void sent() {
                if (--inProgress > 0) return;
                ticket.busy(false);
                scheduleOnce(HEAD, headTimeout);
            }

            @Override
            public void onTimer(Object key) {
                completeStage();
            }

            @Override
            public void postStop() {
                ticket.release();
            }
        };
    }
}
