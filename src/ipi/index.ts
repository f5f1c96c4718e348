/**
 * parapet/ipi — indirect prompt-injection detection as the first pre-tool-call
 * hook: a content model that reads tool results as prose whatever carries them,
 * and a trace model that decides whether a pending call, in its session, was
 * caused by an injection (provenance of arguments and of the tool choice, what
 * the user asked for, the passages read before it).
 *
 * @module parapet/ipi
 */
export { init, initSync } from '../init.js';
export { IpiDetector, DetectorSession, IpiBlockedError, type IpiDetectorOptions } from './detector.js';
export { CoreClassifier, type ContentScorer, type ContentModelOptions, type Passage } from './classifier.js';
export { LEVELS, calibrate, type Anchors } from './calibration.js';
export { contentModelOnnx, linearModelOnnx } from './onnx.js';
export { TraceModel, TRACE_FEATURES, TRACE_RISK_FEATURES, type TraceScorer, type TraceFeature, type TraceModelFile } from './trace-model.js';
export { SESSION_LIMITS, type SessionState } from './session.js';
export { registerIpiHook, guardTool, type PreToolCallPayload, type PostToolCallPayload } from './hooks.js';
export type { IpiMode, IpiLevel, IpiAction, IpiRisk, IpiReason, IpiReasonCode, TextRisk, ToolCall, Observation, SignalName, SignalReport } from './types.js';
