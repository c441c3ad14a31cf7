package accounts

data class User(val id: Int, val email: String) {
    fun domain(): String = email.substringAfter('@')

    fun normalized(): User = copy(email = email.lowercase())
}

class AuditLog {
    private val entries = ArrayList<String>()

    fun write(entry: String) {
        entries += entry
    }

    fun size(): Int = entries.size
}
