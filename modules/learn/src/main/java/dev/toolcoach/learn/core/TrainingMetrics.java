package dev.toolcoach.learn.core;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * The figures of one training update, one record per algorithm. Written as the record's own fields with
 * no type tag; read back, the algorithm is recognised by the fields it has (each record has one the others lack).
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.DEDUCTION)
@JsonSubTypes({@JsonSubTypes.Type(GrpoMetrics.class), @JsonSubTypes.Type(DpoMetrics.class), @JsonSubTypes.Type(SftMetrics.class)})
public sealed interface TrainingMetrics permits GrpoMetrics, DpoMetrics, SftMetrics {
}
