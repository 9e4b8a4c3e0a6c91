/**
 * TILE's replicated tool preferences (ADAPT across nodes).
 * <ul>
 *   <li>{@code TilePreferences}: an Akka extension with its own replicator (role {@code toolcoach.tile.role}) and
 *       metrics (α, β and competence on {@code /metrics}).</li>
 *   <li>{@code PreferenceReplicator}: a thin shell over the agent's {@code ToolPreferences}.</li>
 *   <li>{@code PreferenceCounters}: the counter-map layout: a PN-counter map "tile-preferences", one counter per
 *       context, tool and outcome; each node increments its own share, so the value is the exact sum over nodes.</li>
 *   <li>{@code FileDurableStore}: the durable store ({@code durable-dir}), instead of Akka's LMDB store, which needs
 *       {@code --add-opens} on Java 17; a damaged store file is a one-line error at start.</li>
 * </ul>
 */
package dev.toolcoach.cluster.tile;
