export { words, wordErrorRate, wordErrors } from '../../src/cli/eval/word-error-rate';
