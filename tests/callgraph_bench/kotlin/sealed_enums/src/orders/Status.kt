package orders

enum class Priority(val weight: Int) {
    LOW(1),
    NORMAL(5),
    HIGH(10);

    fun isUrgent(): Boolean = this == HIGH

    fun bump(): Priority = if (isUrgent()) this else values()[ordinal + 1]

    companion object {
        fun parse(raw: String): Priority = valueOf(raw.uppercase())
    }
}

sealed class Event {
    abstract fun summary(): String
}

data class Placed(val orderId: String, val priority: Priority) : Event() {
    override fun summary(): String = "placed $orderId (${priority.name})"
}

data class Shipped(val orderId: String, val carrier: String) : Event() {
    override fun summary(): String = "shipped $orderId via $carrier"

    fun trackingUrl(): String = "https://track.example/$carrier/$orderId"
}

object Cancelled : Event() {
    override fun summary(): String = "cancelled"
}
