package functions

// knownMissingKernels lists, sorted, the scalar functions whose kernels
// are still to be written.
const knownMissingKernels = ""
