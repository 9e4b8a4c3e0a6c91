/**
 * The {@code hpo} suite: hyperparameter optimisation of a gradient-boosted model on the real tabular datasets of
 * {@code ../shared/data/hpo} (breast cancer, wine, digits, diabetes). {@code HpoLab} owns the data, the split of each
 * dataset into a training part the tools see and a held-out test part only a task's reward reads, the training, and
 * the cache; {@code HpoTools} is what a model calls: {@code describe_dataset}, {@code list_params} and
 * {@code cross_validate}. {@code BoosterConfig} is a configuration and its one text format ({@code max_depth=4
 * learning_rate=0.1}), the tools' argument and a task's answer alike; {@code DataSlice} the rows and features a query
 * works on.
 *
 * <p>Decisions. The library is XGBoost4J ({@code ml.dmlc:xgboost4j_2.12}, Apache-2.0) over LightGBM's
 * {@code lightgbmlib} (MIT): XGBoost4J has a plain Java API ({@code DMatrix}, {@code Booster.update} one round at a
 * time, which is what lets a call stop boosting at its deadline) and loads the natives in its jar by itself (Linux
 * x86_64 and aarch64, macOS, Windows; they need the system's {@code libgomp1}), and it is maintained (3.4.0, 2026);
 * {@code lightgbmlib} is a raw SWIG binding (pointers handled by hand, natives extracted and loaded by the caller),
 * x86_64 only, last released in 2023. XGBoost4J's POM brings Scala 2.12 beside Akka's 2.13: the root POM excludes it
 * and only {@code ml.dmlc.xgboost4j.java} is used, which needs no Scala ({@code HpoToolsTest} trains with 2.13 on the
 * classpath). Every model trains on one thread with a fixed seed, on a fixed split and fixed folds: deterministic,
 * and one call takes one core. A call's deadline is checked between boosting rounds (and the thread's interrupt, so
 * the executor's timeout stops it too); results are cached by slice and configuration ({@code 0.10} and {@code 0.1},
 * or a value set to its default, are one configuration), and a call cut short caches nothing. One lab per data folder
 * serves a whole JVM ({@code HpoLab.shared}), since a result depends on nothing else: a one-JVM job then computes each
 * of its oracle's calls once, for the task's build, the oracle's replays and the embedded tool node alike.
 */
package dev.toolcoach.tools.hpo;
