package etl

fun <T> retry(times: Int, action: () -> T): T {
    repeat(times - 1) {
        try {
            return action()
        } catch (e: IllegalStateException) {
            logError(e.message ?: "retry")
        }
    }
    return action()
}

fun logError(message: String) {
    System.err.println("error: $message")
}

fun normalize(records: List<Record>): List<Record> =
    records.filter { it.isValid() }.map { scale(it, 10) }

fun scale(record: Record, factor: Int): Record = record.copy(value = record.value * factor)
