package acme

import acme.shop._
import acme.util.Log

object Main {
  def main(args: Array[String]): Unit = {
    val log = Log("main")
    val catalog = new Catalog(log)
    val item = catalog.add("Blue Mug", 12)
    println(item.label)
    catalog.find(item.id).foreach(i => log.warn(i.discounted(10).label))
    report(catalog)
  }

  def report(c: Catalog): Unit = {
    import acme.util.Strings._
    println(pad(c.find("blue-mug").map(_.title).getOrElse("?"), 20))
  }
}
