/*
 * Boot shim for QEMU's mps2-an385 (Cortex-M3, no MMU).
 *
 * M-profile reset takes the initial SP and PC from a vector table at
 * address 0, while the kernel runs from DRAM at 0x21000000: this shim is
 * that vector table.  Its reset handler also enables UART0's transmitter
 * (QEMU's CMSDK UART starts disabled; the kernel's early console assumes
 * firmware enabled it), then enters the kernel the way the ARM boot
 * protocol asks: r0 = 0, r1 = machine type (unused with a DTB),
 * r2 = DTB address.
 *
 * Built with --defsym KERNEL_ENTRY=... --defsym DTB_ADDR=...
 */
	.syntax unified
	.cpu cortex-m3
	.thumb

	.equ	UART0_BASE, 0x40004000
	.equ	UART_CTRL, 0x08
	.equ	UART_BAUDDIV, 0x10
	.equ	STACK_TOP, 0x00400000	/* top of SSRAM1 */

	.section .vectors, "ax"
	.word	STACK_TOP
	.word	reset + 1
	.rept	14
	.word	hang + 1		/* NMI, HardFault, ... before the kernel's own table */
	.endr

	.text
	.globl	reset
	.thumb_func
reset:
	ldr	r0, =UART0_BASE
	movs	r1, #16			/* QEMU wants BAUDDIV >= 16 */
	str	r1, [r0, #UART_BAUDDIV]
	movs	r1, #3			/* TX and RX enable */
	str	r1, [r0, #UART_CTRL]
	movs	r0, #0
	mov	r1, #0xffffffff
	ldr	r2, =DTB_ADDR
	ldr	r3, =KERNEL_ENTRY
	orr	r3, r3, #1		/* Thumb */
	bx	r3

	.thumb_func
hang:
	b	hang
