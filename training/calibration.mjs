// The detector's score scale for the training scripts, read from the built package
// so that training and the detector cannot disagree (src/ipi/calibration.ts).
export { calibrate, LEVELS } from '../dist/ipi.js';
