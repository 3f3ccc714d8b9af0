export { words, wordErrorRate, wordErrors } from '../../src/eval/word-error-rate';
