package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// tickerSession opens a session with a Ticker table (symbol, price, tax,
// rowtime with a watermark) holding rows of "HH:MM:SS price tax" for one
// symbol on a given day.
func tickerSession(t *testing.T, symbol, day string, rows ...string) *Session {
	t.Helper()
	s := openQuerySession(t)
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "SET 'table.dml-sync' = 'true'")
	mustExec(t, s, "CREATE TABLE Ticker (symbol STRING, price BIGINT, tax BIGINT, rowtime TIMESTAMP(3), "+
		"WATERMARK FOR rowtime AS rowtime - INTERVAL '1' SECOND)")
	var vals []string
	for _, r := range rows {
		f := strings.Fields(r)
		vals = append(vals, fmt.Sprintf("('%s', %s, %s, TIMESTAMP '%s %s')", symbol, f[1], f[2], day, f[0]))
	}
	rowsOf(t, s, "INSERT INTO Ticker VALUES "+strings.Join(vals, ", "))
	return s
}

// The examples of Flink's "Pattern Recognition" page, with the outputs
// the page gives.
func TestMatchRecognizeTickerExample(t *testing.T) {
	s := tickerSession(t, "ACME", "2011-04-01",
		"10:00:00 12 1", "10:00:01 17 2", "10:00:02 19 1", "10:00:03 21 3", "10:00:04 25 2", "10:00:05 18 1",
		"10:00:06 15 1", "10:00:07 14 2", "10:00:08 24 2", "10:00:09 25 2", "10:00:10 19 1")
	q := `SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            START_ROW.rowtime AS start_tstamp,
            LAST(PRICE_DOWN.rowtime) AS bottom_tstamp,
            LAST(PRICE_UP.rowtime) AS end_tstamp
        ONE ROW PER MATCH
        AFTER MATCH SKIP TO LAST PRICE_UP
        PATTERN (START_ROW PRICE_DOWN+ PRICE_UP)
        DEFINE
            PRICE_DOWN AS
                (LAST(PRICE_DOWN.price, 1) IS NULL AND PRICE_DOWN.price < START_ROW.price) OR
                    PRICE_DOWN.price < LAST(PRICE_DOWN.price, 1),
            PRICE_UP AS
                PRICE_UP.price > LAST(PRICE_DOWN.price, 1)
    ) MR`
	want := "ACME | 2011-04-01 10:00:04.000 | 2011-04-01 10:00:07.000 | 2011-04-01 10:00:08.000"
	expectRows(t, s, q, want)
	// Streaming mode emits the match as an insertion.
	mustExec(t, s, "SET 'execution.runtime-mode' = 'streaming'")
	expectRows(t, s, q, "+I | "+want)
	// A view stores the expanded text, which reads back the same.
	mustExec(t, s, "SET 'execution.runtime-mode' = 'batch'")
	mustExec(t, s, "CREATE VIEW drops AS "+q)
	expectRows(t, s, "SELECT symbol, end_tstamp FROM drops", "ACME | 2011-04-01 10:00:08.000")
}

func TestMatchRecognizeAggregations(t *testing.T) {
	s := tickerSession(t, "ACME", "2011-04-01",
		"10:00:00 12 1", "10:00:01 17 2", "10:00:02 13 1", "10:00:03 16 3", "10:00:04 25 2", "10:00:05 2 1",
		"10:00:06 4 1", "10:00:07 10 2", "10:00:08 15 2", "10:00:09 25 2", "10:00:10 25 1", "10:00:11 30 1")
	// Flink's AVG over BIGINT is a BIGINT: the page's 14.5 and 13.5 are
	// printed by Flink as 14 and 13.
	expectRows(t, s, `SELECT *
FROM Ticker
    MATCH_RECOGNIZE (
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            FIRST(A.rowtime) AS start_tstamp,
            LAST(A.rowtime) AS end_tstamp,
            AVG(A.price) AS avgPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A+ B)
        DEFINE
            A AS AVG(A.price) < 15
    ) MR`, "ACME | 2011-04-01 10:00:00.000 | 2011-04-01 10:00:03.000 | 14\n"+
		"ACME | 2011-04-01 10:00:05.000 | 2011-04-01 10:00:10.000 | 13")
	// With DOUBLE prices the averages are the page's.
	expectRows(t, s, `SELECT avgPrice FROM Ticker MATCH_RECOGNIZE (
  PARTITION BY symbol ORDER BY rowtime
  MEASURES AVG(CAST(A.price AS DOUBLE)) AS avgPrice, SUM(A.price * A.tax) AS st, COUNT(A.price) AS n
  AFTER MATCH SKIP PAST LAST ROW PATTERN (A+ B) DEFINE A AS AVG(CAST(A.price AS DOUBLE)) < 15)`, "14.5\n13.5")
}

func TestMatchRecognizeGreedyAndReluctant(t *testing.T) {
	s := tickerSession(t, "XYZ", "2018-09-17",
		"10:00:02 10 1", "10:00:03 11 2", "10:00:04 12 1", "10:00:05 13 2", "10:00:06 14 1", "10:00:07 16 2")
	q := `SELECT * FROM Ticker MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.price AS lastPrice
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B%s C)
        DEFINE
            A AS A.price > 10,
            B AS B.price < 15,
            C AS C.price > 12
    )`
	expectRows(t, s, fmt.Sprintf(q, "*"), "XYZ | 16")
	expectRows(t, s, fmt.Sprintf(q, "*?"), "XYZ | 13\nXYZ | 16")
}

func TestMatchRecognizeOutputMode(t *testing.T) {
	s := tickerSession(t, "XYZ", "2018-09-17", "10:00:02 10 1", "10:00:03 12 2", "10:00:04 13 1", "10:00:05 11 2")
	expectRows(t, s, `SELECT *
FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            FIRST(A.price) AS startPrice,
            LAST(A.price) AS topPrice,
            B.price AS lastPrice
        ONE ROW PER MATCH
        PATTERN (A+ B)
        DEFINE
            A AS LAST(A.price, 1) IS NULL OR A.price > LAST(A.price, 1),
            B AS B.price < LAST(A.price)
    )`, "XYZ | 10 | 13 | 11")
}

func TestMatchRecognizeAfterMatchStrategies(t *testing.T) {
	s := tickerSession(t, "XYZ", "2018-09-17", "10:00:01 7 1", "10:00:02 9 2", "10:00:03 10 1",
		"10:00:04 5 2", "10:00:05 10 2", "10:00:06 7 2", "10:00:07 14 2")
	q := `SELECT *
FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            SUM(A.price) AS sumPrice,
            FIRST(rowtime) AS startTime,
            LAST(rowtime) AS endTime
        ONE ROW PER MATCH
        %s
        PATTERN (A+ C)
        DEFINE
            A AS SUM(A.price) < 30
    )`
	cases := []struct{ after, want string }{
		{"AFTER MATCH SKIP PAST LAST ROW", "XYZ | 26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000\n" +
			"XYZ | 17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000"},
		{"AFTER MATCH SKIP TO NEXT ROW", "XYZ | 26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000\n" +
			"XYZ | 24 | 2018-09-17 10:00:02.000 | 2018-09-17 10:00:05.000\n" +
			"XYZ | 25 | 2018-09-17 10:00:03.000 | 2018-09-17 10:00:06.000\n" +
			"XYZ | 22 | 2018-09-17 10:00:04.000 | 2018-09-17 10:00:07.000\n" +
			"XYZ | 17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000"},
		{"AFTER MATCH SKIP TO LAST A", "XYZ | 26 | 2018-09-17 10:00:01.000 | 2018-09-17 10:00:04.000\n" +
			"XYZ | 25 | 2018-09-17 10:00:03.000 | 2018-09-17 10:00:06.000\n" +
			"XYZ | 17 | 2018-09-17 10:00:05.000 | 2018-09-17 10:00:07.000"},
	}
	for _, c := range cases {
		if got := rowsOf(t, s, fmt.Sprintf(q, c.after)); got != c.want {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.after, got, c.want)
		}
	}
	// SKIP TO FIRST A would start the next match where this one started.
	_, err := run(t, s, fmt.Sprintf(q, "AFTER MATCH SKIP TO FIRST A"))
	if err == nil {
		res, _ := run(t, s, fmt.Sprintf(q, "AFTER MATCH SKIP TO FIRST A"))
		_, _, err = res.Rows.Next(context.Background())
	}
	if err == nil || !strings.Contains(err.Error(), "Could not skip to first element of a match.") {
		t.Fatalf("SKIP TO FIRST A: %v", err)
	}
}

func TestMatchRecognizeWithin(t *testing.T) {
	s := tickerSession(t, "ACME", "2011-04-01", "10:00:00 20 1", "10:20:00 17 2", "10:40:00 18 1",
		"11:00:00 11 3", "11:20:00 14 2", "11:40:00 9 1", "12:00:00 15 1", "12:20:00 14 2", "12:40:00 24 2",
		"13:00:00 1 2", "13:20:00 19 1")
	expectRows(t, s, `SELECT *
FROM Ticker
    MATCH_RECOGNIZE(
        PARTITION BY symbol
        ORDER BY rowtime
        MEASURES
            C.rowtime AS dropTime,
            A.price - C.price AS dropDiff
        ONE ROW PER MATCH
        AFTER MATCH SKIP PAST LAST ROW
        PATTERN (A B* C) WITHIN INTERVAL '1' HOUR
        DEFINE
            B AS B.price > A.price - 10,
            C AS C.price < A.price - 10
    )`, "ACME | 2011-04-01 13:00:00.000 | 14")
}

func TestMatchRecognizeNavigationAndQuantifiers(t *testing.T) {
	s := tickerSession(t, "Q", "2020-01-01", "00:00:01 1 0", "00:00:02 2 0", "00:00:03 3 0", "00:00:04 9 0",
		"00:00:05 4 0", "00:00:06 5 0", "00:00:07 6 0", "00:00:08 7 0", "00:00:09 9 0")
	cases := []struct{ q, want string }{
		// {n}: exactly n rows; CLASSIFIER() of the last row, MATCH_NUMBER().
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime
  MEASURES FIRST(A.price) AS f, LAST(A.price) AS l, B.price AS b, CLASSIFIER() AS c, MATCH_NUMBER() AS n
  AFTER MATCH SKIP PAST LAST ROW PATTERN (A{3} B) DEFINE A AS A.price < 9, B AS B.price = 9)`,
			"1 | 3 | 9 | B | 1\n5 | 7 | 9 | B | 2"},
		// {n,m}? reluctant: the fewest rows; FIRST/LAST with offsets and
		// the default variable.
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime
  MEASURES FIRST(price, 1) AS sec, LAST(price, 1) AS beforeLast, COUNT(*) AS n
  AFTER MATCH SKIP PAST LAST ROW PATTERN (A{2,3}? B) DEFINE A AS A.price < 9, B AS B.price > LAST(A.price))`,
			"2 | 2 | 3\n5 | 5 | 3"},
		// ? optional, SUBSET over two variables.
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime
  MEASURES SUM(S.price) AS s, MAX(S.price) AS m
  AFTER MATCH SKIP PAST LAST ROW PATTERN (A B? C) SUBSET S = (A, B)
  DEFINE A AS A.price = 3, B AS B.price = 9, C AS C.price = 4)`,
			"12 | 9"},
		// {2,} greedy followed by a terminating variable.
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime
  MEASURES COUNT(A.price) AS n, C.price AS c
  AFTER MATCH SKIP TO NEXT ROW PATTERN (A{2,} C) DEFINE A AS A.price < 9, C AS C.price = 9)`,
			"3 | 9\n2 | 9\n4 | 9\n3 | 9\n2 | 9"},
		// PREV(x, 0) is x.
		{`SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime
  MEASURES A.price AS a PATTERN (A B) DEFINE A AS PREV(A.price, 0) = 9, B AS B.price = 4)`, "9"},
	}
	for _, c := range cases {
		if got := rowsOf(t, s, c.q); got != c.want {
			t.Errorf("%s\ngot:\n%s\nwant:\n%s", c.q, got, c.want)
		}
	}
}

func TestMatchRecognizeErrors(t *testing.T) {
	s := tickerSession(t, "Q", "2020-01-01", "00:00:01 1 0")
	cases := []struct{ mode, q, want string }{
		{"streaming", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY price MEASURES A.price AS p PATTERN (A B) DEFINE A AS A.price > 1)",
			"You must specify either rowtime or proctime for order by as the first one."},
		{"streaming", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime DESC MEASURES A.price AS p PATTERN (A B) DEFINE A AS A.price > 1)",
			"Primary sort order of a streaming table must be ascending on time."},
		{"streaming", "SELECT * FROM Ticker MATCH_RECOGNIZE (MEASURES A.price AS p PATTERN (A B) DEFINE A AS A.price > 1)",
			"You must specify either rowtime or proctime for order by."},
		{"batch", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY price MEASURES A.price AS p PATTERN (A B) DEFINE A AS A.price > 1)",
			"You must specify time point for order by as the first one."},
		{"batch", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN ((A | B) C) DEFINE A AS A.price > 1)",
			"Currently, CEP doesn't support branching patterns."},
		{"batch", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B+) DEFINE A AS A.price > 1)",
			"Greedy quantifiers are not allowed as the last element of a Pattern yet."},
		{"batch", "SELECT * FROM Ticker MATCH_RECOGNIZE (ORDER BY rowtime MEASURES A.price AS p PATTERN (A B) DEFINE A AS PREV(A.price) > 1)",
			"Flink does not support physical offsets within partition."},
	}
	for _, c := range cases {
		mustExec(t, s, "SET 'execution.runtime-mode' = '"+c.mode+"'")
		_, err := s.Execute(context.Background(), c.q)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s\ngot error %v, want %q", c.q, err, c.want)
		}
	}
}
