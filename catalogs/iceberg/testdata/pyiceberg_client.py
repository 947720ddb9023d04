"""An independent Iceberg client for eddy's iceberg catalog tests: PyIceberg
against the same REST catalog.

  pyiceberg_client.py URI read NAMESPACE TABLE [SNAPSHOT_ID]
      print the table's rows (of the current snapshot, or the one given),
      one per line as tab-separated values, sorted
  pyiceberg_client.py URI snapshots NAMESPACE TABLE
      print the table's snapshot ids, oldest first, with their operation
  pyiceberg_client.py URI describe NAMESPACE TABLE
      print the schema's fields (id name type required), the identifier
      fields, the partition spec and the format version
  pyiceberg_client.py URI files NAMESPACE TABLE
      print the content kind and equality ids of each file of the
      current snapshot
  pyiceberg_client.py URI write NAMESPACE TABLE
      create the table (id long required, name string, price double,
      day date, at timestamp) and append three rows
"""
import sys
import datetime

from pyiceberg.catalog.rest import RestCatalog


def fmt(v):
    if v is None:
        return "NULL"
    if isinstance(v, datetime.datetime):
        return v.isoformat(sep=" ")
    return str(v)


def main():
    uri, cmd, ns, name = sys.argv[1:5]
    cat = RestCatalog("check", uri=uri)
    ident = (ns, name)
    if cmd == "write":
        import pyarrow as pa
        from pyiceberg.schema import Schema
        from pyiceberg.types import NestedField, LongType, StringType, DoubleType, DateType, TimestampType
        schema = Schema(
            NestedField(1, "id", LongType(), required=True),
            NestedField(2, "name", StringType(), required=False),
            NestedField(3, "price", DoubleType(), required=False),
            NestedField(4, "day", DateType(), required=False),
            NestedField(5, "at", TimestampType(), required=False),
        )
        t = cat.create_table(ident, schema=schema)
        data = pa.table({
            "id": pa.array([1, 2, 3], pa.int64()),
            "name": ["pen", None, "ink"],
            "price": [1.5, 2.25, None],
            "day": [datetime.date(2024, 1, 2), datetime.date(1999, 12, 31), None],
            "at": pa.array([datetime.datetime(2024, 1, 2, 3, 4, 5, 678000), None, datetime.datetime(1970, 1, 1)], pa.timestamp("us")),
        }, schema=pa.schema([
            pa.field("id", pa.int64(), nullable=False),
            pa.field("name", pa.string()),
            pa.field("price", pa.float64()),
            pa.field("day", pa.date32()),
            pa.field("at", pa.timestamp("us")),
        ]))
        t.append(data)
        return
    t = cat.load_table(ident)
    if cmd == "read":
        scan = t.scan(snapshot_id=int(sys.argv[5])) if len(sys.argv) > 5 else t.scan()
        tbl = scan.to_arrow()
        rows = ["\t".join(fmt(v) for v in r.values()) for r in tbl.to_pylist()]
        for r in sorted(rows):
            print(r)
    elif cmd == "snapshots":
        for s in t.metadata.snapshots:
            print(s.snapshot_id, s.summary.operation.value if s.summary else "")
    elif cmd == "describe":
        for f in t.schema().fields:
            print("field", f.field_id, f.name, f.field_type, "required" if f.required else "optional")
        print("identifier", ",".join(t.schema().find_column_name(i) for i in sorted(t.schema().identifier_field_ids)))
        for f in t.spec().fields:
            print("partition", t.schema().find_column_name(f.source_id), f.transform)
        print("format-version", t.metadata.format_version)
    elif cmd == "files":
        for task in t.inspect.files().to_pylist():
            print(task["content"], task.get("equality_ids"))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
