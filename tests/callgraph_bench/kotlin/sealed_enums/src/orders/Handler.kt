package orders

class Notifier {
    fun send(channel: String, text: String) {
        println("[$channel] $text")
    }
}

class EventHandler(private val notifier: Notifier) {
    fun handle(event: Event) {
        when (event) {
            is Placed -> onPlaced(event)
            is Shipped -> notifier.send("mail", event.trackingUrl())
            Cancelled -> notifier.send("sms", Cancelled.summary())
        }
        log(event)
    }

    private fun onPlaced(event: Placed) {
        val priority = event.priority.bump()
        if (priority.isUrgent()) {
            notifier.send("pager", event.summary())
        }
    }

    private fun log(event: Event) {
        println(event.summary())
    }
}

fun replay(raw: List<String>) {
    val handler = EventHandler(Notifier())
    for (line in raw) {
        val priority = Priority.parse(line)
        handler.handle(Placed(line, priority))
    }
    handler.handle(Shipped("1", "ups"))
    handler.handle(Cancelled)
}
