/**
 * parapet/ipi — indirect prompt-injection detection as the first
 * pre-tool-call hook: a classifier over featurized text, provenance of
 * arguments, surprise, decision entropy and a hidden-state probe, each against
 * a per-session baseline.
 */
export { init, initSync } from '../init.js';
export { IpiDetector, DetectorSession, IpiBlockedError, resolveMode, type IpiDetectorOptions } from './detector.js';
export { CoreClassifier, THRESHOLDS, type IpiClassifier } from './classifier.js';
export { registerIpiHook, guardTool, type PreToolCallPayload, type PostToolCallPayload } from './hooks.js';
export { windows, windowRanges, scoringRanges, MAX_WINDOW, MIN_LINE } from './windows.js';
export { entities } from './entities.js';
export type { IpiMode, IpiLevel, IpiAction, IpiRisk, TextRisk, ToolCall, Observation, SignalName, SignalReport } from './types.js';
