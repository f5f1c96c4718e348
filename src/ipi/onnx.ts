// The content model as an ONNX model (opset 13), built from the embedded weights:
//   features [N, B] float ─MatMul(W [B, 1])─Add(b [1])→ logit [N, 1] ─Sigmoid→ probability [N, 1]
// The package carries the weights once; a host that scores through onnxruntime-web
// asks for these bytes instead of loading a second copy. A minimal protobuf encoder
// (field numbers from onnx/onnx.proto): no protobuf toolchain, the same bytes as
// models/ipi-content.onnx.
import { assertFinite, describe, ParapetTypeError } from '../bindings/errors.js';
import { embeddedWeights } from './classifier.js';
import { MODEL_META } from './model.generated.js';

const utf8 = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  do {
    let byte = v % 128;
    v = Math.floor(v / 128);
    if (v > 0) byte |= 0x80;
    out.push(byte);
  } while (v > 0);
  return out;
}

/** Protobuf fields as byte chunks, joined once at the end: the 1 MiB tensor is copied once. */
type Chunks = (number[] | Uint8Array)[];
const size = (c: Chunks): number => c.reduce((a, x) => a + x.length, 0);
const key = (field: number, wire: number): number[] => varint(field * 8 + wire);
const bytesField = (field: number, body: Chunks): Chunks => [key(field, 2), varint(size(body)), ...body];
const strField = (field: number, s: string): Chunks => bytesField(field, [utf8.encode(s)]);
const intField = (field: number, n: number): Chunks => [key(field, 0), varint(n)];

const dim = (d: number | string): Chunks => bytesField(1, typeof d === 'number' ? intField(1, d) : strField(2, d));
const valueInfo = (name: string, dims: (number | string)[]): Chunks => [...strField(1, name), ...bytesField(2, bytesField(1, [...intField(1, 1), ...bytesField(2, dims.flatMap(dim))]))];
const tensor = (name: string, dims: number[], floats: Float32Array): Chunks => [
  ...dims.flatMap((d) => intField(1, d)), ...intField(2, 1), ...strField(8, name),
  ...bytesField(9, [new Uint8Array(floats.buffer, floats.byteOffset, floats.byteLength)]),
];
const node = (op: string, inputs: string[], outputs: string[], name: string): Chunks => [
  ...inputs.flatMap((i) => strField(1, i)), ...outputs.flatMap((o) => strField(2, o)), ...strField(3, name), ...strField(4, op),
];

/** ONNX bytes of a linear model over `featurize` buckets: weights (one per bucket) and bias. */
export function linearModelOnnx(weights: Float32Array, bias: number): Uint8Array {
  if (!(weights instanceof Float32Array) || weights.length === 0) throw new ParapetTypeError(`"weights" must be a non-empty Float32Array, got ${describe(weights)}`);
  assertFinite(bias, 'bias');
  const graph: Chunks = [
    ...bytesField(1, node('MatMul', ['features', 'W'], ['z0'], 'matmul')),
    ...bytesField(1, node('Add', ['z0', 'b'], ['logit'], 'add')),
    ...bytesField(1, node('Sigmoid', ['logit'], ['probability'], 'sigmoid')),
    ...strField(2, 'parapet-ipi-linear'),
    ...bytesField(5, tensor('W', [weights.length, 1], weights)),
    ...bytesField(5, tensor('b', [1], Float32Array.of(bias))),
    ...bytesField(11, valueInfo('features', ['N', weights.length])),
    ...bytesField(12, valueInfo('logit', ['N', 1])),
    ...bytesField(12, valueInfo('probability', ['N', 1])),
  ];
  const model: Chunks = [
    ...intField(1, 8), // ir_version
    ...strField(2, 'parapet'),
    ...strField(3, '0.1.0'),
    ...bytesField(7, graph),
    ...bytesField(8, [...strField(1, ''), ...intField(2, 13)]), // opset_import
  ];
  const out = new Uint8Array(size(model));
  let at = 0;
  for (const c of model) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/**
 * The embedded content model as ONNX bytes, for `ort.InferenceSession.create`.
 * Its input is one range's features (log1p counts over the buckets, L2-normalised),
 * its output the range's probability; the detector's score is the highest range's,
 * calibrated (`calibrate`, the anchors in `models/ipi-content.json`).
 */
export function contentModelOnnx(): Uint8Array {
  return linearModelOnnx(embeddedWeights(), MODEL_META.bias);
}
