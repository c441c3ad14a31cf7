package etl

class Pipeline(private val source: () -> List<String>) {
    private val sinks = mutableListOf<(Record) -> Unit>()

    fun onRecord(sink: (Record) -> Unit): Pipeline {
        sinks += sink
        return this
    }

    fun run(): Int {
        val records = retry(3) { normalize(parseAll(source())) }
        records.forEach { record -> sinks.forEach { sink -> sink(record) } }
        return records.size
    }
}

fun printRecord(record: Record) {
    println("${record.key}=${record.value}")
}

fun main() {
    val pipeline = Pipeline { listOf("a,1", "b,2", "bad") }
    val seen = mutableListOf<Record>()
    pipeline.onRecord(::printRecord).onRecord { seen += it }
    val count = pipeline.run()
    if (count == 0) logError("nothing")
}
