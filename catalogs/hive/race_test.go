//go:build race

package hive_test

// raceBuild: the test binary is built with the race detector, so the
// second eddy process is too, reusing the packages already compiled so.
const raceBuild = true
