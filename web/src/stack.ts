// "用什么框架跑？ / Which framework?": the frameworks students know, each
// mapped to the efficiency class the core models (request workload.stack,
// docs/time-model.md "Software stack"). The first entry is the default.
import { STACK } from './spellings.ts';

export type Stack = (typeof STACK)[number];

export const FRAMEWORKS = [
  { id: 'hf', stack: 'eager' },          // HF Trainer, PEFT, TRL, LLaMA-Factory, LitGPT
  { id: 'pytorch', stack: 'eager' },     // a plain PyTorch training loop
  { id: 'generate', stack: 'eager' },    // transformers model.generate()
  { id: 'compiled', stack: 'optimized' },// torchtune with compile, unsloth, Liger kernels
  { id: 'nvidia', stack: 'optimized' },  // NVIDIA DeepLearningExamples, NeMo, Megatron
  { id: 'vllm', stack: 'vllm' },         // vLLM, SGLang, LMDeploy, TensorRT-LLM
  { id: 'llamacpp', stack: 'llama.cpp' },// llama.cpp, Ollama, LM Studio (GGUF)
] as const satisfies readonly { id: string; stack: Stack }[];
export type Framework = (typeof FRAMEWORKS)[number]['id'];
export const FRAMEWORK_IDS = FRAMEWORKS.map((f) => f.id) as readonly Framework[];

export function stackOf(framework: string): Stack {
  return FRAMEWORKS.find((f) => f.id === framework)?.stack ?? 'eager';
}
