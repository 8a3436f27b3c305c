// Package gemm is the matrix kernel of Memoria's pure-Go embedding models: C += A·W with
// W packed once in panels of 16 columns, axpy, GELU, and IEEE half conversion. (Dot
// products are package ann's kernel, through embed.Dot.)
//
// On amd64 CPUs with AVX2 and FMA the products run on register-blocked kernels in Go
// assembly (6×16, 4×16 and 1×16); elsewhere, with the purego build tag, or with
// MEMORIA_NOASM=1, on pure Go about 15× slower. KernelName says which one runs.
package gemm
