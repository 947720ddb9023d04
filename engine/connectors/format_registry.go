package connectors

// eddyFormats are the formats NewRegistry registers, by identifier.
func eddyFormats() []*Format {
	return []*Format{
		csvFormat(), jsonFormat(), rawFormat(), avroFormat(), parquetFormat(), orcFormat(),
		debeziumJSONFormat(), canalJSONFormat(), maxwellJSONFormat(),
		schemaRegistryFormat("avro-confluent"), schemaRegistryFormat("debezium-avro-confluent"),
	}
}

// schemaRegistryFormat is a format of Flink's that keeps its schemas in a
// Confluent Schema Registry. eddy reaches no registry, so the format is
// known (its options are checked as Flink's are) but configuring it
// fails, naming the format and the reason.
func schemaRegistryFormat(id string) *Format {
	var opts []string
	for _, o := range []string{"url", "subject", "schema", "basic-auth.credentials-source", "basic-auth.user-info",
		"bearer-auth.credentials-source", "bearer-auth.token", "ssl.keystore.location", "ssl.keystore.password",
		"ssl.truststore.location", "ssl.truststore.password", "properties"} {
		opts = append(opts, id+"."+o)
	}
	return &Format{
		Identifier: id,
		Options:    opts,
		Configure: func(map[string]string) (Codec, error) {
			return nil, validationError("The '%s' format is not supported: it reads and writes schemas in a Confluent Schema Registry, which eddy does not connect to. Use the 'avro' format (or 'debezium-json') for records without a registry.", id)
		},
	}
}

// orcFormat is Flink's orc format. No maintained Go library reads and
// writes ORC files well enough (nested types, every compression, the
// statistics Flink's reader uses), so the format is known and refused,
// naming what to use instead.
func orcFormat() *Format {
	return &Format{
		Identifier: "orc",
		Options:    []string{"orc.compress", "orc.stripe.size", "orc.row.index.stride", "orc.bloom.filter.columns", "orc.write.buffer.size"},
		Configure: func(map[string]string) (Codec, error) {
			return nil, validationError("The 'orc' format is not supported: eddy reads and writes no ORC files. Use the 'parquet' format for columnar files (or 'avro', 'csv', 'json').")
		},
	}
}
