package dev.toolcoach.cluster.serialization;

import akka.actor.typed.ActorRef;
import akka.actor.typed.ActorRefResolver;
import akka.actor.typed.internal.adapter.ActorRefAdapter;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import com.esotericsoftware.kryo.serializers.RecordSerializer;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterLayout;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.AdapterPart;
import dev.toolcoach.cluster.protocol.LearnerProtocol.TraceDelivery;
import dev.toolcoach.cluster.protocol.AdapterReceiverProtocol.WeightsChunk;
import dev.toolcoach.trace.Message;
import dev.toolcoach.trace.ParseError;
import dev.toolcoach.trace.ParsedCompletion;
import dev.toolcoach.trace.Termination;
import dev.toolcoach.trace.TokenRecord;
import dev.toolcoach.trace.ToolCall;
import dev.toolcoach.trace.ToolResult;
import dev.toolcoach.trace.Trace;
import dev.toolcoach.trace.Turn;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one list of classes Kryo may read or write, with fixed ids so that every node agrees on the wire
 * format. Registration is required: an unlisted class fails loudly instead of writing class names.
 * Append new classes at the end; never reorder (ids are positional).
 */
public final class KryoRegistrations {

    private static final int FIRST_ID = 100;

    /** Records of the protocol and of the trace model, serialised through their canonical constructors. */
    private static final List<Class<?>> RECORDS = List.of(
            WeightsChunk.class, TraceDelivery.class,
            Trace.class, Turn.class, TokenRecord.class, ParsedCompletion.class, ParseError.class,
            ToolCall.class, ToolResult.class, Message.class);

    /** Records added after the first wire format; registered after everything else so earlier ids stay put. */
    private static final List<Class<?>> LATER_RECORDS = List.of(
            AdapterPart.class, AdapterLayout.class, AdapterLayout.Tensor.class);

    private static final List<Class<?>> ENUMS = List.of(
            Termination.class, ParseError.Kind.class, ToolResult.Status.class);

    /** Plain values that appear inside JSON-shaped fields (tool arguments, structured outputs, metadata). */
    private static final List<Class<?>> VALUES = List.of(
            int[].class, float[].class, long[].class, byte[].class, double[].class,
            BigInteger.class, BigDecimal.class);

    /** JDK list classes the records hold (List.copyOf, Jackson's ArrayList); read back as ArrayList. */
    private static final List<String> LISTS = List.of(
            "java.util.ArrayList", "java.util.ImmutableCollections$ListN", "java.util.ImmutableCollections$List12",
            "java.util.Collections$UnmodifiableRandomAccessList", "java.util.Collections$UnmodifiableList");

    /** JDK map classes the records hold (unmodifiable views, Map.of, Jackson's LinkedHashMap); read back as LinkedHashMap. */
    private static final List<String> MAPS = List.of(
            "java.util.LinkedHashMap", "java.util.HashMap", "java.util.ImmutableCollections$MapN",
            "java.util.ImmutableCollections$Map1", "java.util.Collections$UnmodifiableMap");

    private KryoRegistrations() {
    }

    /** A configured Kryo instance; not thread-safe, so callers pool them. */
    public static Kryo newKryo(ActorRefResolver resolver) {
        Kryo kryo = new Kryo();
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false); // messages are trees; reference tracking only costs time
        int id = FIRST_ID;
        for (Class<?> type : RECORDS) {
            kryo.register(type, recordSerializer(type), id++);
        }
        for (Class<?> type : ENUMS) {
            kryo.register(type, id++);
        }
        for (Class<?> type : VALUES) {
            kryo.register(type, id++);
        }
        CollectionSerializer<Collection<Object>> lists = new ArrayListReadingSerializer();
        for (String name : LISTS) {
            kryo.register(jdkClass(name), lists, id++);
        }
        MapSerializer<Map<Object, Object>> maps = new LinkedHashMapReadingSerializer();
        for (String name : MAPS) {
            kryo.register(jdkClass(name), maps, id++);
        }
        ActorRefSerializer refs = new ActorRefSerializer(resolver);
        kryo.addDefaultSerializer(ActorRef.class, refs);
        kryo.register(ActorRefAdapter.class, refs, id++);
        for (Class<?> type : LATER_RECORDS) {
            kryo.register(type, recordSerializer(type), id++);
        }
        return kryo;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Serializer<?> recordSerializer(Class<?> type) {
        return new RecordSerializer(type);
    }

    private static Class<?> jdkClass(String name) {
        try {
            return Class.forName(name);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JDK class " + name + " not found; this JDK is not supported", e);
        }
    }

    private static final class ArrayListReadingSerializer extends CollectionSerializer<Collection<Object>> {
        @Override
        protected Collection<Object> create(Kryo kryo, Input input, Class<? extends Collection<Object>> type, int size) {
            return new ArrayList<>(size);
        }
    }

    private static final class LinkedHashMapReadingSerializer extends MapSerializer<Map<Object, Object>> {
        @Override
        protected Map<Object, Object> create(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type, int size) {
            return new LinkedHashMap<>(Math.max(16, size * 2));
        }
    }

    /** Actor references travel as their serialization format string, resolved on the receiving node. */
    private static final class ActorRefSerializer extends Serializer<ActorRef<?>> {
        private final ActorRefResolver resolver;

        ActorRefSerializer(ActorRefResolver resolver) {
            super(false, true);
            this.resolver = resolver;
        }

        @Override
        public void write(Kryo kryo, Output output, ActorRef<?> ref) {
            output.writeString(resolver.toSerializationFormat(ref));
        }

        @Override
        public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
            return resolver.resolveActorRef(input.readString());
        }
    }
}
