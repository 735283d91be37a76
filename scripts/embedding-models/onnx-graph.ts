/**
 * The tiny model's ONNX graphs: a lookup of each token's row in an embedding table, which is all
 * a feature-extraction pipeline needs (it pools and normalises the token vectors itself).
 *
 *   model.onnx            last_hidden_state = Gather(table, input_ids)
 *   model_quantized.onnx  last_hidden_state = Gather(DequantizeLinear(table_int8, scale, 0), input_ids)
 *
 * Inputs `input_ids` and `attention_mask` (int64, [batch, sequence]) are what the tokenizer gives
 * a BERT model; the mask is used by the pipeline's mean pooling, not by the graph.
 */
import type { onnx as Onnx } from 'onnx-proto';
import pkg from 'onnx-proto';

const { onnx } = pkg;
const { DataType } = onnx.TensorProto;

/** The operator set both graphs are written against. */
const OPSET = 13;
/** ONNX IR version 8, which onnxruntime 1.14 reads. */
const IR_VERSION = 8;

/** The float graph over `table` (`rows` × `dim`, row-major). */
export function embeddingGraph(table: Float32Array, dim: number): Uint8Array {
  const rows = table.length / dim;
  const initializer = { name: 'embedding_table', dataType: DataType.FLOAT, dims: [rows, dim], rawData: littleEndianFloats(table) };
  return encodeModel([initializer], [gather('embedding_table')], dim);
}

/** The same graph with the table stored as int8 and one symmetric scale. */
export function quantizedEmbeddingGraph(table: Float32Array, dim: number): Uint8Array {
  const rows = table.length / dim;
  const maxAbs = table.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const scale = maxAbs === 0 ? 1 : maxAbs / 127;
  const quantized = Int8Array.from(table, (x) => Math.round(x / scale));
  const initializers: Onnx.ITensorProto[] = [
    { name: 'embedding_table_int8', dataType: DataType.INT8, dims: [rows, dim], rawData: new Uint8Array(quantized.buffer) },
    { name: 'embedding_scale', dataType: DataType.FLOAT, dims: [], rawData: littleEndianFloats(Float32Array.of(scale)) },
    { name: 'embedding_zero_point', dataType: DataType.INT8, dims: [], rawData: new Uint8Array(1) },
  ];
  const dequantize: Onnx.INodeProto = {
    name: 'dequantize_table',
    opType: 'DequantizeLinear',
    input: ['embedding_table_int8', 'embedding_scale', 'embedding_zero_point'],
    output: ['embedding_table'],
  };
  return encodeModel(initializers, [dequantize, gather('embedding_table')], dim);
}

function gather(table: string): Onnx.INodeProto {
  return { name: 'lookup', opType: 'Gather', input: [table, 'input_ids'], output: ['last_hidden_state'] };
}

function encodeModel(initializer: Onnx.ITensorProto[], node: Onnx.INodeProto[], dim: number): Uint8Array {
  const graph: Onnx.IGraphProto = {
    name: 'tiny_embedding',
    initializer,
    node,
    input: [tensorInfo('input_ids', DataType.INT64, ['batch', 'sequence']), tensorInfo('attention_mask', DataType.INT64, ['batch', 'sequence'])],
    output: [tensorInfo('last_hidden_state', DataType.FLOAT, ['batch', 'sequence', dim])],
  };
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'rag-feedback',
    graph,
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A graph input or output: a tensor of `elemType` whose dimensions are named (dynamic) or fixed. */
function tensorInfo(name: string, elemType: number, dims: (string | number)[]): Onnx.IValueInfoProto {
  const dim = dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d }));
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/** ONNX raw tensor data is little-endian whatever the machine. */
function littleEndianFloats(values: Float32Array): Uint8Array {
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  values.forEach((x, i) => {
    view.setFloat32(i * 4, x, true);
  });
  return bytes;
}
