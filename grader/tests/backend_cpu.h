/* backend_cpu.h: the CPU tier's host-memory device for the harness driver. */
#ifndef SCANLAB_BACKEND_CPU_H
#define SCANLAB_BACKEND_CPU_H

#include "driver.h"

extern const hx_backend HX_CPU_BACKEND;
/* Bytes of "device" memory the fake device has (tests lower it to provoke out-of-memory). */
extern size_t cpu_capacity;

#endif
