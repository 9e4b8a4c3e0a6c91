/**
 * Adapter weights, chunked and broadcast from the learner to every inference engine.
 * <ul>
 *   <li>{@code WeightsChunker} (adapter → chunks under 192 KiB), {@code WeightsAssembler} (chunks in any order →
 *       adapter, CRC32 checked; newer versions supersede), {@code AdapterChecksum}.</li>
 *   <li>Learner side: {@code AdapterPublisher} (registered with the Receptionist under
 *       {@code AdapterPublisher.SERVICE_KEY}) takes {@code Publish(AdapterWeights)} from the learner on its node;
 *       {@code AdapterPublication} flattens it (tensors in name order, {@code AdapterFlattening}), cuts it with
 *       {@code WeightsChunker} and keeps the parts of the latest version only. Each part is an
 *       {@code AdapterPart(AdapterLayout, WeightsChunk)}: the layout (LoRA r/alpha/dropout/targets, tensor names and
 *       shapes) rides in every part so any chunk set, broadcast or resent, rebuilds the adapter alone.</li>
 *   <li>Fan-out is an Akka typed {@code Topic} ("toolcoach-adapter", {@code AdapterTopic}), not a list of
 *       Receptionist-registered receivers: the topic already tracks which nodes have subscribers and sends each part
 *       once per subscribed topic instance, so the publisher holds no engine list and node churn needs no code. Its
 *       blind spot (a subscriber the topic does not know yet misses a broadcast) is covered by the receiver's
 *       catch-up.</li>
 *   <li>Engine side: one {@code AdapterReceiver} per InferenceEngine subscribes to the topic, reassembles with
 *       {@code WeightsAssembler} and calls {@code apply} ({@code InferenceEngine::setAdapter}, swapped in between
 *       decode steps). Older versions are ignored. It sends {@code RequestLatestAdapter(appliedVersion)} when it first
 *       sees a publisher (late start, learner restart), when a chunk set is corrupt (discarded), and after each
 *       {@code catchUpInterval} in which no part arrived (a lost chunk stalls an assembly; a missed broadcast). The
 *       publisher answers to that engine only and only with something newer, so an idle check is one message.</li>
 *   <li>Measured by {@code AdapterBroadcastTest} (3 ActorSystems on loopback, serialize-messages on): a 4.25 MiB
 *       adapter (4,456,448 raw tensor bytes) is 23 parts, 4,544,077 bytes on the wire per engine (1.020×, the per-part
 *       layout is most of the overhead), largest part 200,418 bytes (&lt; Artery's 256 KiB frame).</li>
 *   <li>Across JVMs ({@code bench.cluster.AdapterBroadcastBench}: 4 athlete JVMs through {@code cluster.sh}, load
 *       7–13 on 2 shared cores): the same bytes per engine; publish → all 4 engines swapped p50 170–183 ms, p90
 *       235–290 ms over 20 versions, of which up to 50 ms is an idle engine's poll for a pending adapter.</li>
 * </ul>
 */
package dev.toolcoach.cluster.weights;
