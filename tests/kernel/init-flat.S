/*
 * The init of the mps2 (no-MMU) kernels: a position-independent Thumb
 * program that needs no C library and no relocations, so the project's
 * own mkflat can turn it into a FLAT binary.  It says it runs, then
 * powers the machine off.
 */
	.syntax unified
	.cpu cortex-m3
	.thumb

	.equ	SYS_WRITE, 4
	.equ	SYS_REBOOT, 88

	.text
	.globl	_start
	.thumb_func
_start:
	movs	r0, #1
	adr	r1, message
	movs	r2, #(message_end - message)
	movs	r7, #SYS_WRITE
	svc	#0
	ldr	r0, =0xfee1dead		/* LINUX_REBOOT_MAGIC1 */
	ldr	r1, =672274793		/* LINUX_REBOOT_MAGIC2 */
	ldr	r2, =0x4321fedc		/* LINUX_REBOOT_CMD_POWER_OFF */
	movs	r7, #SYS_REBOOT
	svc	#0
1:	b	1b

	.ltorg
	.balign	4
message:
	.ascii	"lto-ld-init: userspace reached\nlto-ld-init: done\n"
message_end:
