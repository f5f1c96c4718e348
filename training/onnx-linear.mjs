// Writes a linear classifier as an ONNX model (opset 13):
//   features [N, B] float ─MatMul(W [B, 1])─Add(b [1])→ logit [N, 1] ─Sigmoid→ probability [N, 1]
// with a minimal protobuf encoder (field numbers from onnx/onnx.proto), so the
// repository needs no Python or protobuf toolchain to produce it.

const varint = (n) => {
  const out = [];
  let v = BigInt(n);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
};
const key = (field, wire) => varint((field << 3) | wire);
const bytesField = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];
const strField = (field, s) => bytesField(field, [...Buffer.from(s, 'utf8')]);
const intField = (field, n) => [...key(field, 0), ...varint(n)];

const dim = (d) => bytesField(1, typeof d === 'number' ? intField(1, d) : strField(2, d));
const valueInfo = (name, dims) =>
  strField(1, name).concat(bytesField(2, bytesField(1, [...intField(1, 1), ...bytesField(2, dims.flatMap(dim))])));
const tensor = (name, dims, floats) =>
  [...dims.flatMap((d) => intField(1, d)), ...intField(2, 1), ...strField(8, name), ...bytesField(9, [...Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength)])];
const node = (op, inputs, outputs, name) =>
  [...inputs.flatMap((i) => strField(1, i)), ...outputs.flatMap((o) => strField(2, o)), ...strField(3, name), ...strField(4, op)];

/** ONNX bytes for weights `w` (Float32Array of B) and bias `b`. */
export function writeOnnxLinear(w, b) {
  const B = w.length;
  const graph = [
    ...bytesField(1, node('MatMul', ['features', 'W'], ['z0'], 'matmul')),
    ...bytesField(1, node('Add', ['z0', 'b'], ['logit'], 'add')),
    ...bytesField(1, node('Sigmoid', ['logit'], ['probability'], 'sigmoid')),
    ...strField(2, 'parapet-ipi-linear'),
    ...bytesField(5, tensor('W', [B, 1], w)),
    ...bytesField(5, tensor('b', [1], Float32Array.of(b))),
    ...bytesField(11, valueInfo('features', ['N', B])),
    ...bytesField(12, valueInfo('logit', ['N', 1])),
    ...bytesField(12, valueInfo('probability', ['N', 1])),
  ];
  const model = [
    ...intField(1, 8), // ir_version
    ...strField(2, 'parapet'),
    ...strField(3, '0.1.0'),
    ...bytesField(7, graph),
    ...bytesField(8, [...strField(1, ''), ...intField(2, 13)]), // opset_import
  ];
  return Buffer.from(model);
}
