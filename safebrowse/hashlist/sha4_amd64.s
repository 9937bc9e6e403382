// Copyright 2026 The urlspec Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

//go:build !purego

#include "go_asm.h"
#include "textflag.h"

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// SHA-256 with the SHA extensions (FIPS 180-4, 6.2.2), the state held as
// SHA256RNDS2 takes it: X1 holds A, B, E, F (A in the top lane), X2 C, D,
// G, H. Each SHA256RNDS2 does two rounds, with W+K of the two in the low
// lanes of X0, and leaves A, B, E, F in its destination: the two
// registers swap roles twice every four rounds. The message words of
// rounds 4j to 4j+3 are in X3 to X6, by j mod 4; from round 16 on,
// SCHED makes each four from the four before: W[t] = σ1(W[t-2]) +
// W[t-7] + σ0(W[t-15]) + W[t-16], SHA256MSG1 adding the σ0 terms,
// PALIGNR picking out W[t-7], and SHA256MSG2 adding the σ1 terms, which
// depend on the words it makes. The words are the prefixes themselves,
// loaded as they are: SHA-256 reads big-endian words, and the message
// is the prefixes big-endian.

// SCHED(a, b, c, d) replaces a, W[t-16..t-13], with W[t..t+3], from b,
// c and d, the words of the three quads after a.
#define SCHED(a, b, c, d) \
	SHA256MSG1 b, a; \
	MOVO       d, X10; \
	PALIGNR    $4, c, X10; \
	PADDD      X10, a; \
	SHA256MSG2 d, a

// QUAD(k, m) runs four rounds with the words m and the constants at k(AX).
#define QUAD(k, m) \
	MOVOU       k(AX), X0; \
	PADDD       m, X0; \
	SHA256RNDS2 X0, X1, X2; \
	PSHUFD      $0x0e, X0, X0; \
	SHA256RNDS2 X0, X2, X1

// BUILD(off, pow) makes addAll's stores (index.go) for the prefix v at
// off(SI), the n-th of the index, BX holding n+1:
//	lo8[n] = byte(v)
//	R9 |= (v>>8 & (2^r - 1)) * pow, pow being 2^(r*(n mod 8))
//	ends[v>>bshift + 1] = n+1
//	p = v>>l + n; hacc = 0 and hw = p>>6 when p>>6 is not hw;
//	hacc |= 1<<(p&63); hi[8hw:] = hacc
// R9 gathers the rests of a group of 8 prefixes, r bits each, for
// PACKED to store. As v < 2^32, v>>s is (v * 2^(32-s))>>32: a multiply
// and a constant shift, not a shift by CL, which takes two µops on Intel
// cores.
#define BUILD(off, pow) \
	MOVL    off(SI), DX; \
	MOVB    DX, (R8)(BX*1); \
	MOVL    DX, R14; \
	SHRL    $8, R14; \
	ANDQ    rmask-32(SP), R14; \
	IMULQ   pow, R14; \
	ORQ     R14, R9; \
	MOVL    DX, R14; \
	IMULQ   bmul-8(SP), R14; \
	SHRQ    $32, R14; \
	MOVL    BX, 4(R10)(R14*4); \
	IMULQ   lmul-16(SP), DX; \
	SHRQ    $32, DX; \
	LEAQ    -1(DX)(BX*1), CX; \
	MOVQ    CX, R14; \
	SHRQ    $6, R14; \
	CMPQ    R14, R12; \
	CMOVQNE zero-24(SP), R13; \
	MOVQ    R14, R12; \
	MOVL    $1, R14; \
	SHLQ    CX, R14; \
	ORQ     R14, R13; \
	MOVQ    R13, (R11)(R12*8); \
	INCQ    BX

// PACKED stores the rests of a group, 8r bits, whole at the next r bytes
// of rem (its bytes past them 0 until the next store), as packRests does.
#define PACKED \
	MOVQ remp-40(SP), R14; \
	MOVQ R9, (R14); \
	ADDQ r-48(SP), R14; \
	MOVQ R14, remp-40(SP); \
	XORL R9, R9

// QUADB(k, m, off, pow) is QUAD with BUILD(off, pow) between its two
// halves: the stores of a prefix fill the time each SHA256RNDS2 waits
// for the one before.
#define QUADB(k, m, off, pow) \
	MOVOU       k(AX), X0; \
	PADDD       m, X0; \
	SHA256RNDS2 X0, X1, X2; \
	BUILD(off, pow); \
	PSHUFD      $0x0e, X0, X0; \
	SHA256RNDS2 X0, X2, X1

// LOADSTATE turns the hash value at (DI), a to h, into X1 (A, B, E, F)
// and X2 (C, D, G, H); STORESTATE back.
#define LOADSTATE \
	MOVOU      (DI), X1; \
	MOVOU      16(DI), X2; \
	PSHUFD     $0x1b, X1, X1; \
	PSHUFD     $0x1b, X2, X2; \
	MOVO       X2, X7; \
	PUNPCKHQDQ X1, X7; \
	PUNPCKLQDQ X1, X2; \
	MOVO       X7, X1

#define STORESTATE \
	MOVO       X2, X7; \
	PUNPCKHQDQ X1, X7; \
	PUNPCKLQDQ X1, X2; \
	PSHUFD     $0x1b, X7, X7; \
	PSHUFD     $0x1b, X2, X2; \
	MOVOU      X7, (DI); \
	MOVOU      X2, 16(DI)

// shaBlocksAsm runs the rounds on h for each of blocks (at least 1) blocks
// of 16 words at ws.
//
// func shaBlocksAsm(h *[8]uint32, ws *uint32, blocks int)
TEXT ·shaBlocksAsm(SB), NOSPLIT, $0-24
	MOVQ h+0(FP), DI
	MOVQ ws+8(FP), SI
	MOVQ blocks+16(FP), DX
	LEAQ ·sha256K(SB), AX
	LOADSTATE

block:
	MOVO X1, X8
	MOVO X2, X9
	MOVOU 0(SI), X3
	QUAD(0, X3)
	MOVOU 16(SI), X4
	QUAD(16, X4)
	MOVOU 32(SI), X5
	QUAD(32, X5)
	MOVOU 48(SI), X6
	QUAD(48, X6)
	SCHED(X3, X4, X5, X6)
	QUAD(64, X3)
	SCHED(X4, X5, X6, X3)
	QUAD(80, X4)
	SCHED(X5, X6, X3, X4)
	QUAD(96, X5)
	SCHED(X6, X3, X4, X5)
	QUAD(112, X6)
	SCHED(X3, X4, X5, X6)
	QUAD(128, X3)
	SCHED(X4, X5, X6, X3)
	QUAD(144, X4)
	SCHED(X5, X6, X3, X4)
	QUAD(160, X5)
	SCHED(X6, X3, X4, X5)
	QUAD(176, X6)
	SCHED(X3, X4, X5, X6)
	QUAD(192, X3)
	SCHED(X4, X5, X6, X3)
	QUAD(208, X4)
	SCHED(X5, X6, X3, X4)
	QUAD(224, X5)
	SCHED(X6, X3, X4, X5)
	QUAD(240, X6)
	PADDD X8, X1
	PADDD X9, X2
	ADDQ  $64, SI
	DECQ  DX
	JNZ   block

	STORESTATE
	RET

// shaBuildAsm is shaBlocksAsm with the stores of addAll for each prefix,
// made in the shadow of the rounds. The rounds of a block take some 130
// cycles, each SHA256RNDS2 waiting for the one before, on the vector
// units; the stores of its 16 prefixes are some 400 instructions, mostly
// for the integer units, which run in between: a block takes barely
// longer than its rounds alone (on an AMD Zen 4, 2.33 against 2.25 ns a
// prefix). The builder has no rests open (n = packed): each 8 prefixes
// are a group of rem. blocks is at least 1.
//
// Registers: AX the constants, SI the block, DI blocks left, BX n+1,
// CX the shift counts and p, DX v, R8 &lo8[0] - 1, R9 the rests of the
// group, R10 &ends[0], R11 &hi[0], R12 hw, R13 hacc, R14 scratch. The
// frame holds 2^(32-bshift), 2^(32-l), a 0, 2^r - 1, the next group's
// address in rem, r, and 2^(r*j) for j from 0 to 7. Every index is in bounds for any 32-bit v
// and n below the builder's size, which shaBuild checks.
//
// func shaBuildAsm(h *[8]uint32, vs *uint32, blocks int, ib *indexBuilder)
TEXT ·shaBuildAsm(SB), NOSPLIT, $112-32
	MOVQ ib+24(FP), DX
	MOVQ indexBuilder_x(DX), R9

	// 2^(32-bshift) and 2^(32-l), for the shifts of v.
	MOVL $32, CX
	SUBQ index_bshift(R9), CX
	MOVL $1, AX
	SHLQ CX, AX
	MOVQ AX, bmul-8(SP)
	MOVL $32, CX
	SUBQ index_l(R9), CX
	MOVL $1, AX
	SHLQ CX, AX
	MOVQ AX, lmul-16(SP)
	MOVQ $0, zero-24(SP)

	// r, 2^r - 1 and 2^(r*j), for the rests.
	MOVQ index_r(R9), CX
	ANDQ $7, CX
	MOVQ CX, r-48(SP)
	MOVL $1, R14
	SHLQ CX, R14
	LEAQ -1(R14), AX
	MOVQ AX, rmask-32(SP)
	MOVL $1, R14
	MOVQ R14, pow0-56(SP)
	SHLQ CX, R14
	MOVQ R14, pow1-64(SP)
	SHLQ CX, R14
	MOVQ R14, pow2-72(SP)
	SHLQ CX, R14
	MOVQ R14, pow3-80(SP)
	SHLQ CX, R14
	MOVQ R14, pow4-88(SP)
	SHLQ CX, R14
	MOVQ R14, pow5-96(SP)
	SHLQ CX, R14
	MOVQ R14, pow6-104(SP)
	SHLQ CX, R14
	MOVQ R14, pow7-112(SP)

	// The builder's arrays, n, hw and hacc, and &rem[n*r/8].
	MOVQ  indexBuilder_n(DX), BX
	MOVQ  BX, AX
	IMULQ CX, AX
	SHRQ  $3, AX
	ADDQ  index_rem(R9), AX
	MOVQ  AX, remp-40(SP)
	INCQ  BX
	MOVQ  index_lo8(R9), R8
	DECQ  R8
	MOVQ  index_hi(R9), R11
	MOVQ  indexBuilder_ends(DX), R10
	MOVQ  indexBuilder_hw(DX), R12
	MOVQ  indexBuilder_hacc(DX), R13
	XORL  R9, R9

	MOVQ h+0(FP), DI
	MOVQ vs+8(FP), SI
	LEAQ ·sha256K(SB), AX
	LOADSTATE
	MOVQ blocks+16(FP), DI

block:
	MOVO X1, X8
	MOVO X2, X9
	MOVOU 0(SI), X3
	QUADB(0, X3, 0, pow0-56(SP))
	MOVOU 16(SI), X4
	QUADB(16, X4, 4, pow1-64(SP))
	MOVOU 32(SI), X5
	QUADB(32, X5, 8, pow2-72(SP))
	MOVOU 48(SI), X6
	QUADB(48, X6, 12, pow3-80(SP))
	SCHED(X3, X4, X5, X6)
	QUADB(64, X3, 16, pow4-88(SP))
	SCHED(X4, X5, X6, X3)
	QUADB(80, X4, 20, pow5-96(SP))
	SCHED(X5, X6, X3, X4)
	QUADB(96, X5, 24, pow6-104(SP))
	SCHED(X6, X3, X4, X5)
	QUADB(112, X6, 28, pow7-112(SP))
	PACKED
	SCHED(X3, X4, X5, X6)
	QUADB(128, X3, 32, pow0-56(SP))
	SCHED(X4, X5, X6, X3)
	QUADB(144, X4, 36, pow1-64(SP))
	SCHED(X5, X6, X3, X4)
	QUADB(160, X5, 40, pow2-72(SP))
	SCHED(X6, X3, X4, X5)
	QUADB(176, X6, 44, pow3-80(SP))
	SCHED(X3, X4, X5, X6)
	QUADB(192, X3, 48, pow4-88(SP))
	SCHED(X4, X5, X6, X3)
	QUADB(208, X4, 52, pow5-96(SP))
	SCHED(X5, X6, X3, X4)
	QUADB(224, X5, 56, pow6-104(SP))
	SCHED(X6, X3, X4, X5)
	QUADB(240, X6, 60, pow7-112(SP))
	PACKED
	PADDD X8, X1
	PADDD X9, X2
	ADDQ  $64, SI
	DECQ  DI
	JNZ   block

	MOVQ h+0(FP), DI
	STORESTATE
	MOVQ ib+24(FP), DX
	DECQ BX
	MOVQ BX, indexBuilder_n(DX)
	MOVQ BX, indexBuilder_packed(DX)
	MOVQ R12, indexBuilder_hw(DX)
	MOVQ R13, indexBuilder_hacc(DX)
	RET
