/*
 * Copyright 2026 the flink-delta authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.github.flinkdelta.it.support;

import org.apache.flink.api.connector.sink2.Sink;

/** Base of test sinks; Flink 2.x sinks implement only {@code createWriter(WriterInitContext)}. */
abstract class SinkCompat<T> implements Sink<T> {
  private static final long serialVersionUID = 1L;
}
