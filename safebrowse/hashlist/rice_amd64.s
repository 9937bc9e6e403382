// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !purego

#include "textflag.h"

// decodeRunAsm is decodeRunGo (rice.go), step for step, in the
// instructions of GOAMD64=v1 (BSF, and shifts by CL), with every value in
// a register: the compiler spills half of the Go loop's values, and
// moves each variable shift count into CX through them.
//
// Registers:
//	AX	x, the buffer: the next bits, inverted
//	BX	cnt, how many bits of x are loaded
//	CX	q, then n, then k: the count of each variable shift
//	DX, R15	scratch
//	SI	the address of p, the first byte not yet in x
//	DI	the last address 8 bytes can be loaded from
//	R8	&out[len(out)]
//	R9	j - len(out), negative until out is full
//	R10	v
//	R11	bad: bit 63 is set once a delta is zero
//	R12	k+1
//	R13	2^k - 1, the remainder's mask
//	R14	entries left in this group
//
// func decodeRunAsm(out []uint32, data []byte, pos uint, v uint64, k, group uint) (n int, end uint, last uint64)
TEXT ·decodeRunAsm(SB), NOSPLIT, $16-104
	MOVQ out_base+0(FP), R8
	MOVQ out_len+8(FP), R9
	MOVQ data_base+24(FP), SI
	MOVQ data_len+32(FP), DI
	MOVQ pos+48(FP), BX
	MOVQ v+56(FP), R10
	MOVQ k+64(FP), CX
	MOVQ group+72(FP), R14

	// Nothing to do without 8 bytes at pos>>3, or with out full.
	MOVQ  BX, DX
	SHRQ  $3, DX
	LEAQ  8(DX), AX
	CMPQ  AX, DI
	JHI   none
	TESTQ R9, R9
	JZ    none

	ANDQ    $31, CX
	MOVQ    CX, k-8(SP)
	LEAQ    1(CX), R12
	MOVL    $1, R13
	SHLQ    CX, R13
	DECQ    R13
	MOVL    $1, AX
	CMPQ    R14, AX
	CMOVQCS AX, R14          // a group of at least 1
	MOVQ    R14, group-16(SP)

	// x = ^load64(data, p) >> (pos&7), cnt = 56 - pos&7, p += 7.
	MOVQ (SI)(DX*1), AX
	NOTQ AX
	MOVQ BX, CX
	ANDQ $7, CX
	SHRQ CX, AX
	MOVL $56, BX
	SUBQ CX, BX
	LEAQ -8(SI)(DI*1), DI    // &data[len(data)-8]
	LEAQ 7(SI)(DX*1), SI
	LEAQ (R8)(R9*4), R8
	NEGQ R9
	XORL R11, R11

entry:
	// An entry: q 1 bits (0 bits of x), a 0 bit, k remainder bits.
	TESTQ AX, AX
	JZ    misfit             // BSF of 0 is undefined: x has no 0 bit
	BSFQ  AX, CX             // q
	MOVQ  AX, R15
	SHRQ  $1, R15
	SHRQ  CX, R15
	ANDQ  R13, R15           // the remainder, inverted: mask - r
	MOVQ  CX, DX
	ADDQ  R12, CX            // n = q + k + 1
	CMPQ  CX, BX
	JHI   misfit             // n > cnt: the entry is not all loaded
	SUBQ  CX, BX
	SHRQ  CX, AX             // x >>= n
	MOVQ  k-8(SP), CX
	SHLQ  CX, DX             // q<<k
	LEAQ  -1(DX)(R13*1), DX
	SUBQ  R15, DX            // delta - 1 = q<<k + r - 1
	ORQ   DX, R11
	LEAQ  1(R10)(DX*1), R10  // v += delta
	MOVL  R10, (R8)(R9*4)
	INCQ  R9
	JZ    done               // out is full
	DECQ  R14
	JNZ   entry

refill:
	// x |= ^load64(data, p) << cnt, p += (63-cnt)>>3, cnt |= 56: load
	// 8 bytes, count the whole bytes that fit. (63-cnt)>>3 is
	// (cnt>>3)^7, as cnt < 64.
	CMPQ SI, DI
	JHI  done                // fewer than 8 bytes at p
	MOVQ (SI), DX
	NOTQ DX
	MOVQ BX, CX
	SHLQ CX, DX
	ORQ  DX, AX
	MOVQ BX, DX
	SHRQ $3, DX
	XORQ $7, DX
	ADDQ DX, SI
	ORQ  $56, BX
	MOVQ group-16(SP), R14
	JMP  entry

misfit:
	CMPQ BX, $56
	JLO  refill              // else a long quotient: a refill adds nothing

done:
	// A zero delta, or a value past 32 bits: nothing decoded.
	TESTQ R11, R11
	JS    none
	MOVL  $0xffffffff, DX
	CMPQ  R10, DX
	JHI   none
	MOVQ  out_len+8(FP), AX
	ADDQ  R9, AX
	MOVQ  AX, n+80(FP)
	SUBQ  data_base+24(FP), SI
	SHLQ  $3, SI
	SUBQ  BX, SI             // end = 8p - cnt
	MOVQ  SI, end+88(FP)
	MOVQ  R10, last+96(FP)
	RET

none:
	MOVQ $0, n+80(FP)
	MOVQ pos+48(FP), AX
	MOVQ AX, end+88(FP)
	MOVQ v+56(FP), AX
	MOVQ AX, last+96(FP)
	RET
