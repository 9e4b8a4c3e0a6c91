/**
 * What each query of a job is offered. {@code QueryTools}: the catalogue whole, or the k tools a {@code RetrievalMode}
 * picks, set on the example once per query ({@code TaskExample.withTools}). {@code Distractors}: other suites' specs
 * and BFCL schemas that grow a catalogue; names are unique in a catalogue, the agent's own tools first.
 * {@code ToolRetrievalSettings}: the job's choice ({@code --tool-retrieval}, {@code --retrieval-k},
 * {@code --distractor-suites/-schemas}; brain's {@code ToolChoice}).
 */
package dev.toolcoach.retrieval.offer;
