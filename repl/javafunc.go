package repl

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"sync"

	"eddy/engine"
	"eddy/engine/sqlerr"
	"eddy/repl/render"
)

// A function made with CREATE FUNCTION ... AS 'class' LANGUAGE JAVA (or
// SCALA) is kept in its catalog, but the embedded engine runs no JVM
// code: calling it fails as an unknown function would. The shell then
// says why, plainly, and where such a function runs.

// unknownFunction is Calcite's error for a call of a function the
// validator does not know.
var unknownFunction = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^No match found for function signature ([^(\s]+)`) })

// msgJavaFunction follows that error when the function is a catalog
// function of a JVM language.
const msgJavaFunction = "%s is a %s function (class %s): eddy runs no %s code, so it can be called only on Flink, with eddy --gateway URL."

// javaFunctionNote writes msgJavaFunction after err when err is the call
// of a user function implemented in Java or Scala. It asks the session
// with DESCRIBE FUNCTION; a gateway session (where Flink runs the
// function) is not asked.
func (sh *Shell) javaFunctionNote(ctx context.Context, w io.Writer, err error, opt render.Options) {
	e := sqlerr.As(err)
	if e == nil || ctx.Err() != nil {
		return
	}
	if _, embedded := sh.sess.(optionSetter); !embedded {
		return
	}
	m := unknownFunction().FindStringSubmatch(e.Message)
	if m == nil {
		return
	}
	res, derr := sh.sess.Execute(ctx, "DESCRIBE FUNCTION "+m[1])
	if derr != nil || res == nil || res.Kind != engine.ResultRows {
		return
	}
	defer res.Close()
	info := map[string]string{}
	for {
		r, more, err := res.Rows.Next(ctx)
		if err != nil || !more {
			break
		}
		if len(r.Values) == 2 {
			k, _ := r.Values[0].(string)
			v, _ := r.Values[1].(string)
			info[k] = v
		}
	}
	name, ok := map[string]string{"JAVA": "Java", "SCALA": "Scala"}[info["function language"]]
	if !ok {
		return
	}
	render.Warning(w, fmt.Sprintf(msgJavaFunction, m[1], name, info["class name"], name), opt)
}
