// The llm stage's entry: what the later stages use of it.
export { chat } from './chat.js';
