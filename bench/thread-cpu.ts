// The calling thread's CPU time (clock_gettime(CLOCK_THREAD_CPUTIME_ID) through bun:ffi), ms: what the
// JavaScript thread alone spent, where process.cpuUsage() counts every thread of the process.
import { dlopen, FFIType, ptr } from "bun:ffi";
const libc = dlopen("libc.so.6", { clock_gettime: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } });
const buf = new BigInt64Array(2);
const p = ptr(buf);
export function threadCpuMs(): number {
  libc.symbols.clock_gettime(3, p);
  return Number(buf[0]!) * 1000 + Number(buf[1]!) / 1e6;
}
