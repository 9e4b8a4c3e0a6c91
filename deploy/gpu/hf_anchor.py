"""The anchor a GPU user would pick instead of ToolCoach: Hugging Face transformers + peft, eager attention, on the same
model folder QwenShapeBench wrote, with the same workloads: one LoRA (r 8, alpha 16, q/v) policy-gradient step over
ROWS x TOKENS tokens per micro-batch size (a warm-up step first, then the median of STEPS), and greedy decode (16-token
prompt, NEW new tokens) per batch size; f32 and bf16. One line per figure, each starting with "hf ". An empty --micro
measures decode alone (peft is then not needed), an empty --decode the step alone.

usage: python3 hf_anchor.py DIR [--rows 8] [--tokens 512] [--micro 1,4,8] [--dtypes float32,bfloat16]
                            [--decode 1,8,64] [--new 32] [--steps 2] [--device cuda]"""
import argparse, statistics, time

import torch
from transformers import AutoModelForCausalLM

ap = argparse.ArgumentParser()
ap.add_argument("path")
ap.add_argument("--rows", type=int, default=8)
ap.add_argument("--tokens", type=int, default=512)
ap.add_argument("--micro", default="1,4,8")
ap.add_argument("--dtypes", default="float32,bfloat16")
ap.add_argument("--decode", default="1,8,64")
ap.add_argument("--new", type=int, default=32)
ap.add_argument("--steps", type=int, default=2)
ap.add_argument("--device", default="cuda")
a = ap.parse_args()
dev = a.device
cuda = dev.startswith("cuda")


def sync():
    if cuda:
        torch.cuda.synchronize()


def peak():
    return f", peak GPU {torch.cuda.max_memory_allocated() / 2**20:.0f} MiB" if cuda else ""


torch.manual_seed(0)
for dtype_name in a.dtypes.split(","):
    dtype = getattr(torch, dtype_name)
    try:
        m = AutoModelForCausalLM.from_pretrained(a.path, dtype=dtype, attn_implementation="eager")
    except TypeError:
        m = AutoModelForCausalLM.from_pretrained(a.path, torch_dtype=dtype, attn_implementation="eager")
    m = m.to(dev).eval()
    vocab = m.config.vocab_size
    for b in [int(x) for x in a.decode.split(",") if x]:
        ids = torch.randint(0, vocab, (b, 16), device=dev)
        with torch.no_grad():
            m.generate(ids, max_new_tokens=4, min_new_tokens=4, do_sample=False, pad_token_id=0)
            sync(); t = time.time()
            m.generate(ids, max_new_tokens=a.new, min_new_tokens=a.new, do_sample=False, pad_token_id=0)
            sync(); s = time.time() - t
        print(f"hf {dtype_name} greedy batch {b}: {b * a.new / s:.2f} tokens/s aggregate ({s:.2f} s)", flush=True)
    micros = [int(x) for x in a.micro.split(",") if x]
    if not micros:
        del m
        continue
    from peft import LoraConfig, get_peft_model
    pm = get_peft_model(m, LoraConfig(r=8, lora_alpha=16, target_modules=["q_proj", "v_proj"], lora_dropout=0.0))
    pm.train()
    opt = torch.optim.AdamW([p for p in pm.parameters() if p.requires_grad], lr=1e-5)
    ids = torch.randint(0, vocab, (a.rows, a.tokens), device=dev)
    adv = torch.randn(a.rows, 1, device=dev)
    for micro in micros:
        times = []
        try:
            for rep in range(a.steps + 1):  # the first warms up
                if cuda:
                    torch.cuda.reset_peak_memory_stats()
                sync(); t = time.time()
                for i in range(0, a.rows, micro):
                    logits = pm(input_ids=ids[i:i + micro]).logits[:, :-1].float()
                    logp = torch.log_softmax(logits, -1).gather(-1, ids[i:i + micro, 1:, None]).squeeze(-1)
                    loss = -(logp * adv[i:i + micro]).sum() / (a.rows * (a.tokens - 1))
                    loss.backward()
                    del logits, logp, loss
                opt.step(); opt.zero_grad(set_to_none=True)
                sync()
                if rep > 0:
                    times.append(time.time() - t)
            s = statistics.median(times)
            print(f"hf {dtype_name} LoRA step {a.rows} x {a.tokens}, micro-batches of {micro}: {s:.3f} s "
                  f"({a.rows * (a.tokens - 1) / s:.0f} tokens/s, median of {len(times)}){peak()}", flush=True)
        except torch.OutOfMemoryError:
            print(f"hf {dtype_name} LoRA step {a.rows} x {a.tokens}, micro-batches of {micro}: out of memory", flush=True)
            opt.zero_grad(set_to_none=True)
            torch.cuda.empty_cache()
    del pm, m, opt
    if cuda:
        torch.cuda.empty_cache()
