package etl

data class Record(val key: String, val value: Int) {
    fun isValid(): Boolean = key.isNotBlank() && value >= 0
}

fun parseLine(line: String): Record? {
    val parts = splitFields(line)
    if (parts.size != 2) return null
    return Record(parts[0].trim(), parts[1].trim().toIntOrNull() ?: return null)
}

private fun splitFields(line: String): List<String> = line.split(',')

fun parseAll(lines: List<String>): List<Record> = lines.mapNotNull { parseLine(it) }
