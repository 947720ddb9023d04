//go:build !race

package hive_test

// raceBuild: the test binary is built without the race detector.
const raceBuild = false
